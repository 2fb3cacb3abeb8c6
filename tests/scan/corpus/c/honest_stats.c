/* expect: clean */
/* An honest submission: reads numbers, sorts them, prints statistics.
 * Traps: forbidden words in comments and strings, look-alike names,
 * and 0x0f and 0x05 in a table but not next to each other.
 * asm("syscall"); system("rm -rf /"); fork(); socket(); dlopen(); */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char table[] = {0x0f, 0x01, 0x05, 0xcd, 0x00, 0x80};
static int system_total, socket_count, asm_len = 3, fork_depth;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *worker(void *arg)
{
    double *sum = arg;
    *sum += 1.0;
    return NULL;
}

static void execute_query(const char *q)
{
    printf("query: %s (not a system() call)\n", q);
}

int main(void)
{
    double v[1000];
    size_t n = 0;
    while (n < 1000 && scanf("%lf", &v[n]) == 1)
        n++;
    qsort(v, n, sizeof v[0], (int (*)(const void *, const void *))cmp);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    pthread_t t;
    pthread_create(&t, NULL, worker, &sum);
    pthread_join(t, NULL);
    const char *note = "fork() and execve() are not used here; neither is asm volatile(\"syscall\")";
    execute_query("SELECT 1");
    printf("%zu %.3f %.3f %s %d %d %d %d %d\n", n, sum, n ? sqrt(sum / n) : 0.0, note, system_total,
           socket_count, asm_len, fork_depth, table[0] + (int)strlen(note));
    return 0;
}
