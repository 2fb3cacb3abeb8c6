// honest: c_pthreads
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: 8 pthreads (default 8 MB stacks) each compute a sum and join; prints pthreads-ok 8
// ok-if: out_has "pthreads-ok 8"
#include <pthread.h>
#include <stdio.h>

static void *work(void *a)
{
	volatile unsigned long s = 0;
	for (unsigned long i = 0; i < 5000000; i++)
		s += i ^ (unsigned long)a;
	return (void *)s;
}

int main(void)
{
	pthread_t t[8];
	int ok = 0;
	for (long i = 0; i < 8; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i) == 0)
			ok++;
	for (int i = 0; i < ok; i++)
		pthread_join(t[i], NULL);
	printf("pthreads-ok %d\n", ok);
	return 0;
}
