/* N threads each sum a range; exit 0 when all joined. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static void *work(void *a)
{
	volatile long s = 0;
	for (long i = 0; i < 2000000; i++)
		s += i;
	return a;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t t[64];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	puts("threads ok");
	return 0;
}
