/* runner - start-up benchmark driver: runs several command lines
 * alternately and reports medians and paired ratios.
 *
 *   runner [-n ROUNDS] [-w WARMUP] [-t TIMEOUT_S] [-r RAWFILE] [-v]
 *          NAME 'COMMAND LINE' [NAME 'COMMAND LINE' ...]
 *
 * Each COMMAND LINE is split on blanks (no quoting).  Every round runs each
 * command once, in a rotating order (round r starts with command r mod k:
 * A B C, B C A, C A B, ...), so that no command always follows the same
 * other one.  A run is posix_spawnp (glibc: clone(CLONE_VM|CLONE_VFORK))
 * followed by waitpid, timed with CLOCK_MONOTONIC around both.  The child's
 * stdout/stderr go to /dev/null unless -v.  A run fails when it exits
 * non-zero, is killed, or outlives TIMEOUT_S (default 60); failed runs are
 * counted and excluded from the statistics (a sandlock option that is not
 * implemented exits 125 every time and shows up as ok=0).
 *
 * Output (stdout, tab-separated):
 *   # lines with the parameters
 *   cmd   NAME  COMMAND LINE
 *   stat  NAME  ok fail median_ms p10_ms p90_ms mean_ms min_ms first_fail_status
 *   ratio A B   median p10 p90 pairs    (over rounds where both succeeded,
 *                                        the distribution of t[A]/t[B])
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct cmd {
    const char *name;
    const char *line;
    char **argv;
    double *t; /* ms per round, NAN when failed */
    int ok, fail;
    int first_fail; /* exit status of the first failure, -1 timeout, -2 spawn */
    int have_fail;
};

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
}

static char **split(const char *line)
{
    char *copy = strdup(line);
    size_t cap = 8, n = 0;
    char **v = malloc(cap * sizeof *v);
    if (!copy || !v) {
        perror("runner");
        exit(2);
    }
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        if (n + 2 > cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            if (!v) {
                perror("runner");
                exit(2);
            }
        }
        v[n++] = tok;
    }
    v[n] = NULL;
    if (n == 0) {
        fprintf(stderr, "runner: empty command line\n");
        exit(2);
    }
    return v;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* returns elapsed ms, or NAN with *status set on failure */
static double run_once(struct cmd *c, posix_spawn_file_actions_t *fa, int timeout_s,
                       int *status_out)
{
    pid_t pid;
    double t0 = now_ms();
    int rc = posix_spawnp(&pid, c->argv[0], fa, NULL, c->argv, environ);
    if (rc != 0) {
        *status_out = -2;
        return NAN;
    }
    timed_out = 0;
    alarm((unsigned)timeout_s);
    int status, killed = 0;
    for (;;) {
        if (waitpid(pid, &status, 0) == pid)
            break;
        if (errno != EINTR) {
            perror("runner: waitpid");
            exit(2);
        }
        if (timed_out && !killed) {
            kill(pid, SIGKILL);
            killed = 1;
        }
    }
    double t1 = now_ms();
    alarm(0);
    if (killed) {
        *status_out = -1;
        return NAN;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return t1 - t0;
    *status_out = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* quantile of sorted v[0..n-1], linear interpolation */
static double quantile(const double *v, int n, double q)
{
    if (n <= 0)
        return NAN;
    double pos = q * (n - 1);
    int i = (int)pos;
    double f = pos - i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

static void usage(void)
{
    fprintf(stderr, "usage: runner [-n ROUNDS] [-w WARMUP] [-t TIMEOUT_S] [-r RAWFILE] [-v] "
                    "NAME 'CMD' [NAME 'CMD' ...]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int rounds = 100, warmup = 3, timeout_s = 60, verbose = 0, opt;
    const char *rawpath = NULL;
    while ((opt = getopt(argc, argv, "+n:w:t:r:v")) != -1) {
        switch (opt) {
        case 'n': rounds = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        case 't': timeout_s = atoi(optarg); break;
        case 'r': rawpath = optarg; break;
        case 'v': verbose = 1; break;
        default: usage();
        }
    }
    int nargs = argc - optind;
    if (rounds < 1 || warmup < 0 || timeout_s < 1 || nargs < 2 || nargs % 2)
        usage();
    int k = nargs / 2;
    struct cmd *cmds = calloc((size_t)k, sizeof *cmds);
    if (!cmds) {
        perror("runner");
        return 2;
    }
    for (int i = 0; i < k; i++) {
        cmds[i].name = argv[optind + 2 * i];
        cmds[i].line = argv[optind + 2 * i + 1];
        cmds[i].argv = split(cmds[i].line);
        cmds[i].t = malloc((size_t)rounds * sizeof(double));
        if (!cmds[i].t) {
            perror("runner");
            return 2;
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
    sigaction(SIGALRM, &sa, NULL);

    posix_spawn_file_actions_t fa, *fap = NULL;
    if (!verbose) {
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        fap = &fa;
    }
    FILE *raw = NULL;
    if (rawpath) {
        raw = fopen(rawpath, "w");
        if (!raw) {
            perror(rawpath);
            return 2;
        }
        fprintf(raw, "round\tname\tms\tstatus\n");
    }

    for (int r = -warmup; r < rounds; r++) {
        for (int j = 0; j < k; j++) {
            int idx = ((r < 0 ? -r : r) + j) % k;
            struct cmd *c = &cmds[idx];
            int st = 0;
            double t = run_once(c, fap, timeout_s, &st);
            if (r < 0)
                continue;
            c->t[r] = t;
            if (isnan(t)) {
                c->fail++;
                if (!c->have_fail) {
                    c->have_fail = 1;
                    c->first_fail = st;
                }
            } else {
                c->ok++;
            }
            if (raw)
                fprintf(raw, "%d\t%s\t%.4f\t%d\n", r, c->name, isnan(t) ? -1.0 : t,
                        isnan(t) ? st : 0);
        }
    }
    if (raw)
        fclose(raw);

    printf("# runner: rounds=%d warmup=%d timeout_s=%d order=rotating\n", rounds, warmup,
           timeout_s);
    for (int i = 0; i < k; i++)
        printf("cmd\t%s\t%s\n", cmds[i].name, cmds[i].line);
    printf("# stat NAME ok fail median_ms p10_ms p90_ms mean_ms min_ms first_fail_status\n");
    double *tmp = malloc((size_t)rounds * sizeof(double));
    if (!tmp) {
        perror("runner");
        return 2;
    }
    for (int i = 0; i < k; i++) {
        int n = 0;
        double sum = 0;
        for (int r = 0; r < rounds; r++)
            if (!isnan(cmds[i].t[r])) {
                tmp[n++] = cmds[i].t[r];
                sum += cmds[i].t[r];
            }
        qsort(tmp, (size_t)n, sizeof(double), cmp_double);
        char ff[32] = "-";
        if (cmds[i].have_fail) {
            if (cmds[i].first_fail == -1)
                snprintf(ff, sizeof ff, "timeout");
            else if (cmds[i].first_fail == -2)
                snprintf(ff, sizeof ff, "spawn_failed");
            else
                snprintf(ff, sizeof ff, "%d", cmds[i].first_fail);
        }
        printf("stat\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%s\n", cmds[i].name,
               cmds[i].ok, cmds[i].fail, quantile(tmp, n, 0.5), quantile(tmp, n, 0.1),
               quantile(tmp, n, 0.9), n ? sum / n : NAN, n ? tmp[0] : NAN, ff);
    }
    printf("# ratio A B median p10 p90 pairs  (paired: per-round t[A]/t[B])\n");
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            if (a == b)
                continue;
            int n = 0;
            for (int r = 0; r < rounds; r++)
                if (!isnan(cmds[a].t[r]) && !isnan(cmds[b].t[r]))
                    tmp[n++] = cmds[a].t[r] / cmds[b].t[r];
            qsort(tmp, (size_t)n, sizeof(double), cmp_double);
            printf("ratio\t%s\t%s\t%.4f\t%.4f\t%.4f\t%d\n", cmds[a].name, cmds[b].name,
                   quantile(tmp, n, 0.5), quantile(tmp, n, 0.1), quantile(tmp, n, 0.9), n);
        }
    return 0;
}
