/* predecessor - an emulation of Sandlock's predecessor (sandbox_exec) for
 * the benchmark suite, so that it can be measured in the same run.
 *
 *   predecessor COMMAND [ARGS...]
 *
 * Built the way the predecessor was: linked dynamically (libc and
 * libseccomp.so), plain fork(), and the seccomp filter built with libseccomp
 * in the child after fork (seccomp_init/rule_add/seccomp_load), then the same
 * process setup as floor_profile (setsid, six rlimits, root drop, no_new_privs)
 * and execvp.  Same deny list as floor_profile (bench/deny_list.h).  This is
 * NOT the original sandbox_exec, whose source is not in the repository; the
 * figures the issue quotes for the original are given beside it in the docs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deny_list.h"

#define MB (1024UL * 1024UL)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: predecessor COMMAND [ARGS...]\n");
        return 2;
    }
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0) {
        perror("predecessor: pipe");
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("predecessor: fork");
        return 125;
    }
    if (pid == 0) {
        int err = 0, code = 125;
        close(pfd[0]);
        setsid();
        struct rlimit r;
        r.rlim_cur = r.rlim_max = 5;
        if (setrlimit(RLIMIT_CPU, &r) < 0) goto fail;
        r.rlim_cur = r.rlim_max = 256 * MB;
        if (setrlimit(RLIMIT_DATA, &r) < 0) goto fail;
        r.rlim_cur = r.rlim_max = 10 * MB;
        if (setrlimit(RLIMIT_FSIZE, &r) < 0) goto fail;
        r.rlim_cur = r.rlim_max = 100;
        if (setrlimit(RLIMIT_NOFILE, &r) < 0) goto fail;
        r.rlim_cur = r.rlim_max = 10;
        if (setrlimit(RLIMIT_NPROC, &r) < 0) goto fail;
        r.rlim_cur = r.rlim_max = 0;
        if (setrlimit(RLIMIT_CORE, &r) < 0) goto fail;
        if (geteuid() == 0) {
            if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
                setresuid(65534, 65534, 65534) < 0)
                goto fail;
        }
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) goto fail;
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
        if (!ctx) { errno = ENOMEM; goto fail; }
        int rc = bench_fill_filter(ctx, NULL);
        if (rc == 0) rc = seccomp_load(ctx);
        if (rc < 0) { errno = -rc; goto fail; }
        seccomp_release(ctx);
        execvp(argv[1], argv + 1);
        code = errno == ENOENT ? 127 : 126;
    fail:
        err = errno;
        if (write(pfd[1], &err, sizeof err) < 0) {}
        _exit(code);
    }
    close(pfd[1]);
    int err = 0;
    ssize_t n = read(pfd[0], &err, sizeof err);
    close(pfd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("predecessor: waitpid");
            return 125;
        }
    }
    if (n == (ssize_t)sizeof err) {
        fprintf(stderr, "predecessor: %s: %s\n", argv[1], strerror(err));
        return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 125;
}
