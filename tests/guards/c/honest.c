/* An honest submission: reads input.txt in its working directory, sums the
 * numbers with four threads, writes the result into $TMPDIR and prints it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4
static long nums[1024], part[N];
static int count;

static void *sum(void *arg)
{
	long k = (long)arg;
	for (int i = (int)k; i < count; i += N)
		part[k] += nums[i];
	return NULL;
}

int main(void)
{
	FILE *in = fopen("input.txt", "r");
	if (!in) {
		perror("input.txt");
		return 1;
	}
	while (count < 1024 && fscanf(in, "%ld", &nums[count]) == 1)
		count++;
	fclose(in);
	pthread_t t[N];
	for (long k = 0; k < N; k++)
		if (pthread_create(&t[k], NULL, sum, (void *)k))
			return 1;
	long total = 0;
	for (int k = 0; k < N; k++) {
		pthread_join(t[k], NULL);
		total += part[k];
	}
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/honest.out", tmp ? tmp : "/tmp");
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	fprintf(out, "%ld\n", total);
	fclose(out);
	printf("sum %ld\n", total);
	return 0;
}
