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
 *  - before fork: the seccomp filter (bench/deny_list.h: 60 syscalls killed,
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
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deny_list.h"

#define MB (1024UL * 1024UL)

static char **cmd;

static struct sock_fprog prepare_filter(void)
{
    struct sock_fprog prog = {0, NULL};
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        fprintf(stderr, "floor_profile: seccomp_init failed\n");
        exit(125);
    }
    unsigned added = 0;
    int rc = bench_fill_filter(ctx, &added);
    if (rc < 0) {
        fprintf(stderr, "floor_profile: filter: %s\n", strerror(-rc));
        exit(125);
    }
    int fd = memfd_create("floor_profile-bpf", MFD_CLOEXEC);
    if (fd < 0) {
        perror("floor_profile: memfd_create");
        exit(125);
    }
    rc = seccomp_export_bpf(ctx, fd);
    seccomp_release(ctx);
    if (rc < 0) {
        fprintf(stderr, "floor_profile: seccomp_export_bpf: %s\n", strerror(-rc));
        exit(125);
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size <= 0 ||
        st.st_size % (off_t)sizeof(struct sock_filter) != 0) {
        fprintf(stderr, "floor_profile: bad exported filter\n");
        exit(125);
    }
    struct sock_filter *insns = malloc((size_t)st.st_size);
    if (!insns || pread(fd, insns, (size_t)st.st_size, 0) != st.st_size) {
        fprintf(stderr, "floor_profile: reading the filter failed\n");
        exit(125);
    }
    close(fd);
    prog.len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
    prog.filter = insns;
    if (getenv("FLOOR_PROFILE_VERBOSE"))
        fprintf(stderr, "floor_profile: %u rules, %u BPF instructions\n", added,
                prog.len);
    return prog;
}

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
    struct sock_fprog prog = prepare_filter();
    const struct {
        int res;
        rlim_t val;
    } lims[6] = {
        {RLIMIT_CPU, cpu},       {RLIMIT_DATA, 256 * MB}, {RLIMIT_FSIZE, 10 * MB},
        {RLIMIT_NOFILE, 100},    {RLIMIT_NPROC, 10},      {RLIMIT_CORE, 0},
    };
    struct rlimit rl[6];
    for (int i = 0; i < 6; i++)
        rl[i].rlim_cur = rl[i].rlim_max = lims[i].val;
    int drop_root = geteuid() == 0;

    volatile int child_errno = 0;
    volatile int child_step = 0;
    pid_t pid = vfork();
    if (pid < 0) {
        perror("floor_profile: vfork");
        return 125;
    }
    if (pid == 0) {
        child_step = 1;
        if (syscall(SYS_setsid) < 0)
            goto fail;
        child_step = 2;
        for (int i = 0; i < 6; i++)
            if (syscall(SYS_prlimit64, 0, lims[i].res, &rl[i], NULL) < 0)
                goto fail;
        if (drop_root) {
            child_step = 3;
            if (syscall(SYS_setgroups, 0, NULL) < 0 ||
                syscall(SYS_setresgid, 65534, 65534, 65534) < 0 ||
                syscall(SYS_setresuid, 65534, 65534, 65534) < 0)
                goto fail;
        }
        child_step = 4;
        if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
            goto fail;
        child_step = 5;
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
            goto fail;
        child_step = 6;
        execvp(cmd[0], cmd);
    fail:
        child_errno = errno;
        _exit(child_step == 6 ? 127 : 125);
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
