/* guess, crash: asks once, then dereferences a null pointer. */
#include <stdio.h>

int main(void)
{
	long n;
	char r[8];
	if (scanf("%ld", &n) != 1)
		return 0;
	printf("? %ld\n", n / 2);
	fflush(stdout);
	if (scanf("%7s", r) != 1)
		return 0;
	volatile int *p = NULL;
	return *p;
}
