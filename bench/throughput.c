/* throughput - runs per second of one command with several workers.
 *
 *   throughput [-w WORKERS] [-d SECONDS] [-t TIMEOUT_S] -- COMMAND [ARGS...]
 *
 * Forks WORKERS (default 2) processes; each runs COMMAND again and again
 * (posix_spawnp + waitpid, stdout/stderr to /dev/null) until SECONDS
 * (default 10, fractions allowed) have passed, then finishes its run in
 * flight.  Prints one tab-separated line:
 *   tput WORKERS SECONDS_ELAPSED OK FAIL RUNS_PER_S FIRST_FAIL_STATUS
 * RUNS_PER_S = successful runs / elapsed wall time (start to last worker's
 * end).  A run fails when it exits non-zero or outlives TIMEOUT_S.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct result {
    long ok, fail;
    int first_fail;
    double end;
};

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct result worker(char **cmd, double deadline, int timeout_s)
{
    struct result res = {0, 0, 0, 0};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    while (now_s() < deadline) {
        pid_t pid;
        int st;
        if (posix_spawnp(&pid, cmd[0], &fa, NULL, cmd, environ) != 0) {
            st = -2;
        } else {
            int status, killed = 0;
            timed_out = 0;
            alarm((unsigned)timeout_s);
            while (waitpid(pid, &status, 0) != pid) {
                if (errno != EINTR)
                    _exit(3);
                if (timed_out && !killed) {
                    kill(pid, SIGKILL);
                    killed = 1;
                }
            }
            alarm(0);
            if (killed)
                st = -1;
            else if (WIFEXITED(status))
                st = WEXITSTATUS(status);
            else
                st = 128 + WTERMSIG(status);
        }
        if (st == 0) {
            res.ok++;
        } else {
            if (res.fail++ == 0)
                res.first_fail = st;
            if (st == -2) /* cannot spawn at all: do not spin */
                break;
        }
    }
    res.end = now_s();
    return res;
}

int main(int argc, char **argv)
{
    int workers = 2, timeout_s = 60, opt;
    double seconds = 10;
    while ((opt = getopt(argc, argv, "+w:d:t:")) != -1) {
        switch (opt) {
        case 'w': workers = atoi(optarg); break;
        case 'd': seconds = atof(optarg); break;
        case 't': timeout_s = atoi(optarg); break;
        default: goto usage;
        }
    }
    if (optind < argc && !strcmp(argv[optind], "--"))
        optind++;
    if (optind >= argc || workers < 1 || seconds <= 0 || timeout_s < 1)
        goto usage;
    int pfd[2];
    if (pipe(pfd) < 0) {
        perror("throughput: pipe");
        return 2;
    }
    double start = now_s(), deadline = start + seconds;
    for (int i = 0; i < workers; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("throughput: fork");
            return 2;
        }
        if (pid == 0) {
            close(pfd[0]);
            struct result r = worker(argv + optind, deadline, timeout_s);
            if (write(pfd[1], &r, sizeof r) != (ssize_t)sizeof r)
                _exit(3);
            _exit(0);
        }
    }
    close(pfd[1]);
    struct result total = {0, 0, 0, start};
    int have_fail = 0;
    for (int i = 0; i < workers; i++) {
        struct result r;
        if (read(pfd[0], &r, sizeof r) != (ssize_t)sizeof r) {
            fprintf(stderr, "throughput: a worker died\n");
            return 2;
        }
        total.ok += r.ok;
        total.fail += r.fail;
        if (r.fail && !have_fail) {
            have_fail = 1;
            total.first_fail = r.first_fail;
        }
        if (r.end > total.end)
            total.end = r.end;
    }
    while (wait(NULL) > 0) {
    }
    double elapsed = total.end - start;
    char ff[32] = "-";
    if (have_fail) {
        if (total.first_fail == -1)
            snprintf(ff, sizeof ff, "timeout");
        else if (total.first_fail == -2)
            snprintf(ff, sizeof ff, "spawn_failed");
        else
            snprintf(ff, sizeof ff, "%d", total.first_fail);
    }
    printf("tput\t%d\t%.3f\t%ld\t%ld\t%.1f\t%s\n", workers, elapsed, total.ok, total.fail,
           (double)total.ok / elapsed, ff);
    return 0;
usage:
    fprintf(stderr, "usage: throughput [-w WORKERS] [-d SECONDS] [-t TIMEOUT_S] -- COMMAND [ARGS...]\n");
    return 2;
}
