// honest: c_sigalrm
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: a program guarding its own search with alarm(1) and a 50 ms setitimer tick (SIGALRM handlers); prints alarm-ok when the alarm fired and the ticks were counted
// ok-if: out_has "alarm-ok"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t fired, ticks;

static void on_alarm(int s)
{
	(void)s;
	fired++;
}

static void on_tick(int s)
{
	(void)s;
	ticks++;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	volatile unsigned long spin = 0;
	while (!fired)
		spin++; /* "search until time is up" */
	sa.sa_handler = on_tick;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 50000}, {0, 50000}};
	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 5)
		pause();
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("alarm-ok fired=%d ticks=%d\n", (int)fired, (int)ticks);
	return 0;
}
