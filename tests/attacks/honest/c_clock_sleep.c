// honest: c_clock_sleep
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: times itself with clock_gettime (MONOTONIC, REALTIME, PROCESS_CPUTIME_ID) around nanosleep(200 ms) and clock_nanosleep(100 ms); prints clock-ok when the clocks agree
// ok-if: out_has "clock-ok" && [ "$(st wall_ms)" -ge 300 ]
#include <stdio.h>
#include <time.h>

static double now(clockid_t c)
{
	struct timespec t;
	if (clock_gettime(c, &t) != 0)
		return -1;
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	double m0 = now(CLOCK_MONOTONIC), r0 = now(CLOCK_REALTIME), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	struct timespec d = {0, 200000000};
	if (nanosleep(&d, NULL) != 0)
		return perror("nanosleep"), 1;
	d.tv_nsec = 100000000;
	if (clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL) != 0)
		return puts("clock_nanosleep failed"), 1;
	double dm = now(CLOCK_MONOTONIC) - m0, dr = now(CLOCK_REALTIME) - r0, dc = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("slept %.3f s monotonic, %.3f s realtime, %.4f s cpu\n", dm, dr, dc);
	if (m0 > 0 && r0 > 1.6e9 && dm >= 0.3 && dm < 2 && dr > 0.25 && dr < 2 && dc >= 0 && dc < 0.1)
		puts("clock-ok");
	return 0;
}
