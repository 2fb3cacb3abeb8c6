// attack: cpu_autoreap
// flags: --cgroup auto --no-network --clean-env --cpu 1 --mem 256 --nproc 20 --timeout 8
// needs: cgroup2
// bare-timeout: 8
// timeout: 14
// evidence: with SIGCHLD ignored the kernel reaps each child itself and no rusage (nobody's cutime) ever holds its CPU; children of about 4 ms of CPU each, two at a time, keep both CPUs busy between the supervisor's samples.  Each child adds its 4 ms to a counter the parent prints ("burned MS"): escaped = the children burned 2.5 s of CPU (2.5x --cpu 1), whatever the wall clock (a loaded machine stretches 1 s of CPU over many seconds of wall: that is no escape), or anything is left behind
// exclusive: yes
// escaped-if: [ "$(sed -n 's/^burned //p' "$OUT" | tail -n 1)" -ge 2500 ] 2>/dev/null || survivor
#include "attack.h"
#include <sys/mman.h>
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
	/* what the children burned, counted by themselves: the evidence */
	long *burned = mmap(NULL, sizeof *burned, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (burned == MAP_FAILED)
		return 1;
	signal(SIGCHLD, SIG_IGN); /* the kernel reaps: no zombie, no rusage */
	hold_alive_lock();
	long said = 0;
	for (;;) {
		for (int i = 0; i < 2; i++) {
			pid_t p = fork();
			if (p == 0) {
				burn_ms(4);
				__atomic_add_fetch(burned, 4, __ATOMIC_RELAXED);
				_exit(0);
			}
		}
		long now = __atomic_load_n(burned, __ATOMIC_RELAXED);
		if (now - said >= 100) {
			say("burned %ld\n", now);
			said = now;
		}
		/* the parent only waits: its own clock stays near zero */
		struct timespec nap = { 0, 4 * 1000000 };
		nanosleep(&nap, NULL);
	}
}
