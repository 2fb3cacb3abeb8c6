/* Burn CPU for argv[1] milliseconds of CPU time, then exit 0. */
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec t;
	volatile unsigned long x = 0;
	for (;;) {
		for (int i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		if (t.tv_sec * 1000 + t.tv_nsec / 1000000 >= ms)
			return 0;
	}
}
