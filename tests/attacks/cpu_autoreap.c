// attack: cpu_autoreap
// flags: --cgroup auto --no-network --clean-env --cpu 1 --mem 256 --nproc 20 --timeout 8
// needs: cgroup2
// bare-timeout: 4
// timeout: 14
// evidence: with SIGCHLD ignored the kernel reaps each child itself and no rusage (nobody's cutime) ever holds its CPU; children of about 4 ms of CPU each, two at a time, keep both CPUs busy between the supervisor's samples; contained = the run ends near --cpu 1 (wall < 3.5 s by the launcher's clock, where --timeout 8 would end it at 8 s) with nothing left behind
// exclusive: yes
// escaped-if: [ "$(st wall_ms)" -ge 3500 ] || survivor
#include "attack.h"
#include <sys/wait.h>
#include <time.h>

static void burn_ms(int ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	signal(SIGCHLD, SIG_IGN); /* the kernel reaps: no zombie, no rusage */
	hold_alive_lock();
	for (;;) {
		for (int i = 0; i < 2; i++) {
			pid_t p = fork();
			if (p == 0) {
				burn_ms(4);
				_exit(0);
			}
		}
		/* the parent only waits: its own clock stays near zero */
		struct timespec nap = { 0, 4 * 1000000 };
		nanosleep(&nap, NULL);
	}
}
