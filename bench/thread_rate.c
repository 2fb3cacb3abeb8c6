/* thread_rate - thread creation rate: create and join N threads, one at a
 * time (the pattern that costs a run the most per thread), and print the
 * threads per second.  Under sandlock without a user namespace of the
 * run's own, every clone goes to the supervisor to be counted against
 * --nproc (src/lib/seccomp.c): this measures what that costs (issue 25).
 *   thread_rate [N]    (default 20000)
 * Static. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *nothing(void *arg)
{
    return arg;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, nothing, NULL) != 0) {
            fprintf(stderr, "thread_rate: pthread_create failed at %ld\n", i);
            return 1;
        }
        pthread_join(t, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%.0f\n", (double)n / s);
    return 0;
}
