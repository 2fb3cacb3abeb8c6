// honest: c_pthreads_mutex
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: 8 pthreads increment a mutex-protected counter and meet at a barrier (a typical parallel-sum assignment); prints mutex-ok 8 8000000
// ok-if: out_has "mutex-ok 8 8000000"
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static long counter;

static void *work(void *a)
{
	(void)a;
	pthread_barrier_wait(&bar);
	for (int i = 0; i < 1000000; i++) {
		pthread_mutex_lock(&mu);
		counter++;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[8];
	int ok = 0;
	pthread_barrier_init(&bar, NULL, 8);
	for (long i = 0; i < 8; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i) == 0)
			ok++;
	for (int i = 0; i < ok; i++)
		pthread_join(t[i], NULL);
	printf("mutex-ok %d %ld\n", ok, counter);
	return 0;
}
