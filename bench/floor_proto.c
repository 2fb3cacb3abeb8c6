/* floor_proto - the prototype floor of the seed command line (issue 26).
 *
 *   floor_proto COMMAND [ARGS...]
 *
 * The least work that does what --no-fork --no-network --clean-env --cpu 5
 * --mem 256 asks: the filter of bench/deny_list.h compiled into the binary
 * at build time (floor_proto_gen; a binary tree, as sandlock's own filter
 * is, since 2026-12-07: the list before cost the kernel 0.5 ms more to
 * install on a slow guest), six rlimits, vfork, and in the child
 * setsid, the rlimits, 65534 when root, no-new-privs, the filter, execve.
 * floor_profile does the same but builds its filter with libseccomp on
 * every start (most of its cost); this is the floor sandlock's own
 * start-up is held to (docs/benchmarks.md: <= 1.05x).  Static.
 * Exit status as floor_profile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "floor_proto_filter.h"

static char **cmd;

int main(int argc, char **argv)
{
    cmd = argv + 1; /* a static: nothing live across vfork in a register */
    if (argc < 2) {
        fprintf(stderr, "usage: floor_proto COMMAND [ARGS...]\n");
        return 2;
    }
    static const int res[6] = {RLIMIT_CPU, RLIMIT_DATA, RLIMIT_FSIZE,
                               RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CORE};
    static const struct rlimit rl[6] = {{5, 5}, {256UL << 20, 256UL << 20},
                                        {10UL << 20, 10UL << 20}, {100, 100},
                                        {10, 10}, {0, 0}};
    struct sock_fprog prog = {
        .len = sizeof floor_proto_filter / sizeof floor_proto_filter[0],
        .filter = (struct sock_filter *)floor_proto_filter,
    };
    int drop_root = geteuid() == 0;
    volatile int child_errno = 0, child_step = 0;
    pid_t pid = vfork();
    if (pid < 0) {
        perror("floor_proto: vfork");
        return 125;
    }
    if (pid == 0) {
        int step = 1;
        if (syscall(SYS_setsid) < 0)
            goto out;
        step = 2;
        for (int i = 0; i < 6; i++)
            if (syscall(SYS_prlimit64, 0, res[i], &rl[i], NULL) < 0)
                goto out;
        step = 3;
        if (drop_root && (syscall(SYS_setgroups, 0, NULL) < 0 ||
                          syscall(SYS_setresgid, 65534, 65534, 65534) < 0 ||
                          syscall(SYS_setresuid, 65534, 65534, 65534) < 0))
            goto out;
        step = 4;
        if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
            goto out;
        step = 5;
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
            goto out;
        step = 6;
        execvp(cmd[0], cmd);
    out:
        child_step = step;
        child_errno = errno;
        _exit(step == 6 ? 127 : 125);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("floor_proto: waitpid");
            return 125;
        }
    if (child_errno) {
        fprintf(stderr, "floor_proto: step %d: %s\n", child_step, strerror(child_errno));
        return child_step == 6 ? (child_errno == ENOENT ? 127 : 126) : 125;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 125;
}
