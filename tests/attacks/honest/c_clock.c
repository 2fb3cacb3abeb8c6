// honest: c_clock
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: a C program times itself: clock_gettime (MONOTONIC, REALTIME, BOOTTIME, PROCESS/THREAD_CPUTIME), gettimeofday, time(), nanosleep and an absolute clock_nanosleep (150 ms of sleep); prints clock-ok when every clock moved forward consistently
// ok-if: out_has "clock-ok"
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static double ts(clockid_t c)
{
	struct timespec t;
	if (clock_gettime(c, &t) != 0)
		return -1;
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	double m0 = ts(CLOCK_MONOTONIC), r0 = ts(CLOCK_REALTIME), b0 = ts(CLOCK_BOOTTIME);
	struct timeval tv0, tv1;
	gettimeofday(&tv0, NULL);
	time_t t0 = time(NULL);
	struct timespec d = { 0, 50 * 1000 * 1000 };
	if (nanosleep(&d, NULL) != 0)
		return 1;
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += 100 * 1000 * 1000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) != 0)
		return 2;
	volatile unsigned long s = 0;
	for (unsigned long i = 0; i < 20000000; i++)
		s += i;
	double m1 = ts(CLOCK_MONOTONIC), r1 = ts(CLOCK_REALTIME), b1 = ts(CLOCK_BOOTTIME);
	double cpu = ts(CLOCK_PROCESS_CPUTIME_ID), tcpu = ts(CLOCK_THREAD_CPUTIME_ID);
	gettimeofday(&tv1, NULL);
	double dm = m1 - m0, dr = r1 - r0, db = b1 - b0;
	double dtv = (tv1.tv_sec - tv0.tv_sec) + (tv1.tv_usec - tv0.tv_usec) / 1e6;
	int ok = dm >= 0.15 && dm < 3 && dr > 0.1 && db >= dm - 0.01 && dtv > 0.1 && cpu > 0 && tcpu > 0 &&
		 cpu < dm + 0.5 && time(NULL) >= t0 && r0 > 1.5e9;
	printf("%s monotonic %.3f realtime %.3f cpu %.3f\n", ok ? "clock-ok" : "clock-bad", dm, dr, cpu);
	return !ok;
}
