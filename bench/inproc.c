/* inproc - in-process cost of sandlock_run() against posix_spawn+waitpid.
 *
 *   inproc [-k K] [-w WARMUP] [COMMAND [ARGS...]]     (default /bin/true)
 *
 * From this one process, runs COMMAND K times each way, in rotating order:
 *  - sandlock_run() under the default profile (the original tool's defaults:
 *    cpu 5 s, mem 256 MB, ... plus no_fork, no_network, clean_env);
 *  - floor_inproc: what bench/floor_profile does (vfork; setsid, six
 *    rlimits, the drop to 65534 when root, no-new-privs, the 60-syscall
 *    filter of deny_list.h built once with libseccomp before the loop;
 *    exec; wait), the in-process floor of the default profile's work;
 *  - posix_spawn() + waitpid().
 * Each is timed with CLOCK_MONOTONIC.  A run fails when it returns non-zero
 * or the status is not 0.  Output:
 *   stat NAME ok fail median_ms p10_ms p90_ms
 *   ratio A B median p10 p90 pairs        (per-round ratios A/B)
 *   ratio_of_medians X                     (sandlock_run / posix_spawn)
 * The first ratio line is sandlock_run / posix_spawn.
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

#include "floor_work.h"
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

static struct sock_fprog g_prog;
static int g_res[BENCH_NLIMITS];
static struct rlimit g_rl[BENCH_NLIMITS];

/* floor_profile's child work, from this process; returns the wait status
 * or -1.  noinline: vfork's child must not return into a caller's frame. */
static __attribute__((noinline)) int floor_run(char **cmd, int drop_root)
{
    volatile int failed = 0;
    pid_t pid = vfork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (bench_floor_setup(&g_prog, g_res, g_rl, drop_root) == 0)
            execve(cmd[0], cmd, environ);
        failed = 1;
        _exit(125);
    }
    int status = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return failed ? -1 : status;
}

static void ratio(const char *a, const double *ta, const char *b, const double *tb, int k,
                  double *tmp)
{
    int n = 0;
    for (int i = 0; i < k; i++)
        if (!isnan(ta[i]) && !isnan(tb[i]))
            tmp[n++] = ta[i] / tb[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    printf("ratio\t%s\t%s\t%.4f\t%.4f\t%.4f\t%d\n", a, b, quantile(tmp, n, 0.5),
           quantile(tmp, n, 0.1), quantile(tmp, n, 0.9), n);
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
    p.cpu_ms = 5000;
    p.mem_mb = 256;
    if (bench_floor_filter(&g_prog, NULL) < 0) {
        fprintf(stderr, "inproc: cannot build the floor filter\n");
        return 2;
    }
    bench_floor_limits(5, g_res, g_rl);
    int drop_root = geteuid() == 0;

    enum { SL, FLOOR, SPAWN, N };
    static const char *const names[N] = {"sandlock_run", "floor_inproc", "posix_spawn"};
    double *t[N], *tmp = malloc((size_t)k * sizeof *tmp);
    for (int a = 0; a < N; a++)
        if (!(t[a] = malloc((size_t)k * sizeof *t[a])))
            return 2;
    if (!tmp)
        return 2;
    char first_err[300] = "";
    for (int i = -warmup; i < k; i++) {
        /* rotate the order, so none always follows another */
        for (int j = 0; j < N; j++) {
            int which = ((i < 0 ? -i : i) + j) % N;
            double t0 = now_ms(), dt;
            int ok;
            if (which == SL) {
                struct sandlock_result r;
                memset(&r, 0, sizeof r);
                int rc = sandlock_run(&p, cmd, &r);
                ok = rc == 0 && r.status == 0;
                if (!ok && !first_err[0])
                    snprintf(first_err, sizeof first_err, "rc=%d status=%d verdict=%s error=%s",
                             rc, r.status, sandlock_verdict_name(r.verdict), r.error);
            } else if (which == FLOOR) {
                ok = floor_run(cmd, drop_root) == 0;
            } else {
                pid_t pid;
                int status = -1;
                int rc = posix_spawn(&pid, cmd[0], NULL, NULL, cmd, environ);
                if (rc == 0)
                    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                    }
                ok = rc == 0 && status == 0;
            }
            dt = now_ms() - t0;
            if (i >= 0)
                t[which][i] = ok ? dt : NAN;
        }
    }
    sandlock_policy_release(&p);
    printf("# inproc: K=%d warmup=%d command=%s, sandlock_run default profile "
           "(no_fork no_network clean_env cpu 5 mem 256), floor_inproc and "
           "posix_spawn+waitpid, rotating\n",
           k, warmup, cmd[0]);
    for (int a = 0; a < N; a++)
        stats(names[a], t[a], k, tmp);
    ratio(names[SL], t[SL], names[SPAWN], t[SPAWN], k, tmp);
    ratio(names[FLOOR], t[FLOOR], names[SPAWN], t[SPAWN], k, tmp);
    ratio(names[SL], t[SL], names[FLOOR], t[FLOOR], k, tmp);
    /* ratio of the medians, for reference */
    double med[N];
    for (int a = 0; a < N; a++) {
        int n = 0;
        for (int i = 0; i < k; i++)
            if (!isnan(t[a][i]))
                tmp[n++] = t[a][i];
        qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
        med[a] = quantile(tmp, n, 0.5);
    }
    printf("ratio_of_medians\t%.4f\n", med[SL] / med[SPAWN]);
    if (first_err[0])
        printf("# first sandlock_run failure: %s\n", first_err);
    return 0;
}
