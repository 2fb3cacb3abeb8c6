/* inproc - in-process cost of sandlock_run() against posix_spawn+waitpid.
 *
 *   inproc [-k K] [-w WARMUP] [COMMAND [ARGS...]]     (default /bin/true)
 *
 * From this one process, runs COMMAND K times with sandlock_run() under the
 * default profile (the original tool's defaults: cpu 5 s, mem 256 MB, ... plus
 * no_fork, no_network, clean_env) and K times with posix_spawn()+waitpid(),
 * alternating (A B A B ...), each timed with CLOCK_MONOTONIC.  A run fails
 * when sandlock_run() returns non-zero or the status is not 0.  Output:
 *   stat NAME ok fail median_ms p10_ms p90_ms
 *   ratio sandlock_run posix_spawn median p10 p90 pairs   (per-pair ratios)
 *   ratio_of_medians X
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandlock.h"

extern char **environ;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *v, int n, double q)
{
    if (n <= 0)
        return NAN;
    double pos = q * (n - 1);
    int i = (int)pos;
    double f = pos - i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

static void stats(const char *name, const double *t, int k, double *tmp)
{
    int n = 0;
    for (int i = 0; i < k; i++)
        if (!isnan(t[i]))
            tmp[n++] = t[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    printf("stat\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\n", name, n, k - n, quantile(tmp, n, 0.5),
           quantile(tmp, n, 0.1), quantile(tmp, n, 0.9));
}

int main(int argc, char **argv)
{
    int k = 500, warmup = 5, opt;
    while ((opt = getopt(argc, argv, "+k:w:")) != -1) {
        switch (opt) {
        case 'k': k = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: inproc [-k K] [-w WARMUP] [COMMAND [ARGS...]]\n");
            return 2;
        }
    }
    if (k < 1 || warmup < 0)
        return 2;
    static char *def_cmd[] = {"/bin/true", NULL};
    char **cmd = optind < argc ? argv + optind : def_cmd;

    struct sandlock_policy p;
    sandlock_policy_init(&p);
    p.no_fork = p.no_network = p.clean_env = true;
    p.cpu_sec = 5;
    p.mem_mb = 256;

    double *ts = malloc((size_t)k * sizeof *ts), *tp = malloc((size_t)k * sizeof *tp),
           *tmp = malloc((size_t)k * sizeof *tmp);
    if (!ts || !tp || !tmp)
        return 2;
    char first_err[300] = "";
    for (int i = -warmup; i < k; i++) {
        /* alternate which one goes first, so neither always follows the other */
        for (int j = 0; j < 2; j++) {
            int which = ((i < 0 ? -i : i) + j) % 2;
            double t0 = now_ms(), t;
            if (which == 0) {
                struct sandlock_result r;
                memset(&r, 0, sizeof r);
                int rc = sandlock_run(&p, cmd, &r);
                t = now_ms() - t0;
                if (rc != 0 || r.status != 0) {
                    if (!first_err[0])
                        snprintf(first_err, sizeof first_err, "rc=%d status=%d verdict=%s error=%s",
                                 rc, r.status, sandlock_verdict_name(r.verdict), r.error);
                    t = NAN;
                }
                if (i >= 0)
                    ts[i] = t;
            } else {
                pid_t pid;
                int status = -1;
                int rc = posix_spawn(&pid, cmd[0], NULL, NULL, cmd, environ);
                if (rc == 0)
                    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                    }
                t = now_ms() - t0;
                if (rc != 0 || status != 0)
                    t = NAN;
                if (i >= 0)
                    tp[i] = t;
            }
        }
    }
    sandlock_policy_release(&p);
    printf("# inproc: K=%d warmup=%d command=%s, sandlock_run default profile "
           "(no_fork no_network clean_env cpu 5 mem 256) vs posix_spawn+waitpid, alternating\n",
           k, warmup, cmd[0]);
    stats("sandlock_run", ts, k, tmp);
    stats("posix_spawn", tp, k, tmp);
    int n = 0;
    for (int i = 0; i < k; i++)
        if (!isnan(ts[i]) && !isnan(tp[i]))
            tmp[n++] = ts[i] / tp[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    printf("ratio\tsandlock_run\tposix_spawn\t%.4f\t%.4f\t%.4f\t%d\n", quantile(tmp, n, 0.5),
           quantile(tmp, n, 0.1), quantile(tmp, n, 0.9), n);
    /* ratio of the medians, for reference */
    int a = 0, b = 0;
    double *sa = malloc((size_t)k * sizeof *sa), *sb = malloc((size_t)k * sizeof *sb);
    if (!sa || !sb)
        return 2;
    for (int i = 0; i < k; i++) {
        if (!isnan(ts[i]))
            sa[a++] = ts[i];
        if (!isnan(tp[i]))
            sb[b++] = tp[i];
    }
    qsort(sa, (size_t)a, sizeof *sa, cmp_double);
    qsort(sb, (size_t)b, sizeof *sb, cmp_double);
    printf("ratio_of_medians\t%.4f\n", quantile(sa, a, 0.5) / quantile(sb, b, 0.5));
    if (first_err[0])
        printf("# first sandlock_run failure: %s\n", first_err);
    return 0;
}
