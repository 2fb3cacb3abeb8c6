/* deny_list.h - the syscall deny list shared by the bench floor program
 * (floor_profile.c) and the emulated predecessor (predecessor.c).
 *
 * It stands for what Sandlock's default profile
 * (--no-fork --no-network --clean-env --cpu 5 --mem 256) denies: 60 syscalls
 * killed outright (no argument checks, so the kernel's per-syscall allow
 * cache applies to every other syscall), plus clone() killed unless it
 * creates a thread (an argument check on a cold syscall) and clone3()
 * failing with ENOSYS so that libc falls back to clone().
 */
#ifndef BENCH_DENY_LIST_H
#define BENCH_DENY_LIST_H

static const char *const bench_deny_list[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "personality",
    "kexec_load", "kexec_file_load", "mount", "umount2", "pivot_root",
    "chroot", "swapon", "swapoff", "reboot", "init_module", "finit_module",
    "delete_module", "acct", "settimeofday", "clock_settime", "adjtimex",
    "clock_adjtime", "sethostname", "setdomainname", "iopl", "ioperm",
    "create_module", "get_kernel_syms", "query_module", "quotactl",
    "nfsservctl", "bpf", "perf_event_open", "userfaultfd", "keyctl",
    "add_key", "request_key", "kcmp", "lookup_dcookie", "open_by_handle_at",
    "name_to_handle_at", "fanotify_init", "inotify_init", "inotify_init1",
    "inotify_add_watch", "unshare", "setns", "move_pages", "migrate_pages",
    "vhangup", "syslog", "uselib", "ustat", "sysfs", "_sysctl",
    "io_uring_setup", "fork", "vfork", "socket", "socketpair", "fsopen",
};

#define BENCH_DENY_COUNT (sizeof bench_deny_list / sizeof bench_deny_list[0])

/* Fill a libseccomp context (default action ALLOW) with the deny list.
 * Returns 0 or a negative errno.  Names unknown to this libseccomp are
 * skipped (returned count of rules added in *added). */
#include <errno.h>
#include <sched.h>
#include <seccomp.h>

static int bench_fill_filter(scmp_filter_ctx ctx, unsigned *added)
{
    unsigned n = 0;
    int rc;
#if defined(__x86_64__)
    /* cover every ABI the CPU can enter, as the real profile does */
    rc = seccomp_arch_add(ctx, SCMP_ARCH_X86);
    if (rc < 0 && rc != -EEXIST)
        return rc;
    rc = seccomp_arch_add(ctx, SCMP_ARCH_X32);
    if (rc < 0 && rc != -EEXIST)
        return rc;
#endif
    for (size_t i = 0; i < BENCH_DENY_COUNT; i++) {
        int nr = seccomp_syscall_resolve_name(bench_deny_list[i]);
        if (nr == __NR_SCMP_ERROR)
            continue;
        rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 0);
        if (rc < 0)
            return rc;
        n++;
    }
    /* clone: kill unless CLONE_THREAD is set (threads still work) */
    rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(clone), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    if (rc < 0)
        return rc;
    n++;
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc < 0)
        return rc;
    n++;
    if (added)
        *added = n;
    return 0;
}

#endif
