/* floor_profile - the second floor program of the benchmark suite.
 *
 *   floor_profile [--cpu SEC] COMMAND [ARGS...]
 *
 * (--cpu changes RLIMIT_CPU from 5 s, for the syscall loops of the suite,
 * which need more than 5 s of CPU on a slow VM.)
 *
 * Does what Sandlock's default profile does
 * (--no-fork --no-network --clean-env --cpu 5 --mem 256), in the cheapest
 * way known, so that it is the physical floor for that profile:
 *
 *  - before fork (bench/floor_work.h, shared with bench/inproc.c): the
 *    seccomp filter (bench/deny_list.h: 60 syscalls killed,
 *    clone killed unless it makes a thread, clone3 -> ENOSYS, for x86-64,
 *    i386 and x32) is built once with libseccomp, exported with
 *    seccomp_export_bpf() to a memfd and read back into a struct sock_fprog;
 *    the rlimits are prepared;
 *  - vfork (clone(CLONE_VM|CLONE_VFORK) through libc): no page-table copy;
 *  - in the child, raw syscalls only: setsid, six setrlimit (CPU 5 s,
 *    DATA 256 MiB, FSIZE 10 MiB, NOFILE 100, NPROC 10, CORE 0), when started
 *    as root setgroups/setresgid/setresuid to 65534 (as Sandlock does),
 *    PR_SET_NO_NEW_PRIVS, seccomp(SECCOMP_SET_MODE_FILTER), execve;
 *  - the parent waits.
 *
 * Exit status as floor_spawn: the child's status, 128+signal, 125 on a setup
 * failure, 126/127 when the command cannot be executed.  Linked statically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "floor_work.h"

static char **cmd;

int main(int argc, char **argv)
{
    rlim_t cpu = 5;
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "--cpu")) {
        cpu = strtoul(argv[2], NULL, 10);
        first = 3;
    }
    cmd = argv + first; /* a static: nothing live across vfork in a register */
    if (argc <= first) {
        fprintf(stderr, "usage: floor_profile [--cpu SEC] COMMAND [ARGS...]\n");
        return 2;
    }
    struct sock_fprog prog;
    unsigned rules = 0;
    int rc = bench_floor_filter(&prog, &rules);
    if (rc < 0) {
        fprintf(stderr, "floor_profile: filter: %s\n", strerror(-rc));
        return 125;
    }
    if (getenv("FLOOR_PROFILE_VERBOSE"))
        fprintf(stderr, "floor_profile: %u rules, %u BPF instructions\n", rules, prog.len);
    int res[BENCH_NLIMITS];
    struct rlimit rl[BENCH_NLIMITS];
    bench_floor_limits(cpu, res, rl);
    int drop_root = geteuid() == 0;

    volatile int child_errno = 0;
    volatile int child_step = 0;
    pid_t pid = vfork();
    if (pid < 0) {
        perror("floor_profile: vfork");
        return 125;
    }
    if (pid == 0) {
        int step = bench_floor_setup(&prog, res, rl, drop_root);
        if (step == 0) {
            step = 6;
            execvp(cmd[0], cmd);
        }
        child_step = step;
        child_errno = errno;
        _exit(step == 6 ? 127 : 125);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("floor_profile: waitpid");
            return 125;
        }
    }
    if (child_errno) {
        static const char *const steps[] = {"", "setsid", "setrlimit", "drop root",
                                            "no_new_privs", "seccomp", "exec"};
        fprintf(stderr, "floor_profile: %s%s%s: %s\n", steps[child_step],
                child_step == 6 ? " " : "", child_step == 6 ? cmd[0] : "",
                strerror(child_errno));
        if (child_step != 6)
            return 125;
        return child_errno == ENOENT ? 127 : 126;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 125;
}
