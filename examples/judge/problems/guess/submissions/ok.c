/* guess: binary search, at most 20 questions for N = 1000000. */
#include <stdio.h>

int main(void)
{
	long n, lo = 1, hi;
	char r[8];
	if (scanf("%ld", &n) != 1)
		return 0;
	hi = n;
	while (lo <= hi) {
		long m = lo + (hi - lo) / 2;
		printf("? %ld\n", m);
		fflush(stdout);
		if (scanf("%7s", r) != 1 || r[0] == '=' || r[0] == '-')
			return 0;
		if (r[0] == '<')
			hi = m - 1;
		else
			lo = m + 1;
	}
	return 0;
}
