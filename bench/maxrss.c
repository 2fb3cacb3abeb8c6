/* maxrss - peak memory of a command, for the supervisor-memory benchmark.
 *
 *   maxrss [-n REPS] [-s] -- COMMAND [ARGS...]
 *
 * Runs COMMAND REPS times (default 5), fork + execvp + wait4, stdout/stderr
 * to /dev/null, and prints one tab-separated line:
 *   rss OK FAIL RU_MAXRSS_KB_MEDIAN RU_MAXRSS_KB_MAX HWM_KB_MAX FIRST_FAIL
 *
 * RU_MAXRSS is wait4()'s ru_maxrss.  Careful: Linux reports there the
 * maximum over the waited process AND all the descendants it reaped (and,
 * through exec, the memory of the image it replaced).  To read the
 * supervisor's own peak, make the sandboxed command tiny (bench/tiny_exit,
 * a no-libc program of a few KiB); this wrapper is static and uses fork,
 * not vfork, so its own RSS (measured with COMMAND = tiny_exit directly)
 * is the measurement floor.
 * With -s, /proc/PID/status VmHWM of the direct child (the supervisor
 * alone) is also sampled every millisecond while it runs: HWM_KB_MAX is
 * the largest value seen (0 when the run was too short to be sampled).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long read_hwm(pid_t pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    char *p = strstr(buf, "VmHWM:");
    return p ? strtol(p + 6, NULL, 10) : 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int reps = 5, sample = 0, opt;
    while ((opt = getopt(argc, argv, "+n:s")) != -1) {
        switch (opt) {
        case 'n': reps = atoi(optarg); break;
        case 's': sample = 1; break;
        default: goto usage;
        }
    }
    if (optind < argc && !strcmp(argv[optind], "--"))
        optind++;
    if (optind >= argc || reps < 1)
        goto usage;
    long *rss = calloc((size_t)reps, sizeof *rss);
    if (!rss)
        return 2;
    int ok = 0, fail = 0, first_fail = 0;
    long hwm_max = 0, rss_max = 0;
    for (int i = 0; i < reps; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("maxrss: fork");
            return 2;
        }
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                if (fd > 2)
                    close(fd);
            }
            execvp(argv[optind], argv + optind);
            _exit(127);
        }
        int status;
        long hwm = 0;
        struct rusage ru;
        for (;;) {
            pid_t w = wait4(pid, &status, sample ? WNOHANG : 0, &ru);
            if (w == pid)
                break;
            if (w < 0 && errno != EINTR) {
                perror("maxrss: wait4");
                return 2;
            }
            if (sample) {
                long h = read_hwm(pid);
                if (h > hwm)
                    hwm = h;
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        int st = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (st != 0) {
            if (fail++ == 0)
                first_fail = st;
            continue;
        }
        rss[ok++] = ru.ru_maxrss;
        if (hwm > hwm_max) /* only successful runs: a failed exec says nothing */
            hwm_max = hwm;
        if (ru.ru_maxrss > rss_max)
            rss_max = ru.ru_maxrss;
    }
    qsort(rss, (size_t)ok, sizeof *rss, cmp_long);
    char ff[16] = "-";
    if (fail)
        snprintf(ff, sizeof ff, "%d", first_fail);
    printf("rss\t%d\t%d\t%ld\t%ld\t%ld\t%s\n", ok, fail, ok ? rss[ok / 2] : -1L,
           ok ? rss_max : -1L, hwm_max, ff);
    return 0;
usage:
    fprintf(stderr, "usage: maxrss [-n REPS] [-s] -- COMMAND [ARGS...]\n");
    return 2;
}
