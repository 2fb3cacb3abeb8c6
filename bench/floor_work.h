/* floor_work.h - the default profile's work done the cheapest way known,
 * shared by the floor program (floor_profile.c) and the in-process floor of
 * inproc.c, so that both measure the same thing.
 *
 * Before fork: bench_floor_filter() builds the deny list's filter with
 * libseccomp and reads it back as a BPF program; bench_floor_limits() fills
 * the six rlimits.  In the (vfork) child: bench_floor_setup() makes only raw
 * system calls.
 */
#ifndef BENCH_FLOOR_WORK_H
#define BENCH_FLOOR_WORK_H

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "deny_list.h"

#define BENCH_NLIMITS 6

/* The filter, exported with seccomp_export_bpf() to a memfd and read back.
 * 0, or a negative errno; *rules is the number of rules.  optimize: 1 is
 * libseccomp's default (a list of comparisons per ABI), 2 a binary tree;
 * the kernel runs the filter once per system call number when it is
 * installed (its cache of calls always allowed), so a list costs there
 * with its length: 680 us against 196 us for this deny list as a tree,
 * on a guest where getppid takes 533 ns (2026-12-07). */
static inline int bench_floor_filter_opt(struct sock_fprog *prog, unsigned *rules, int optimize)
{
    prog->len = 0;
    prog->filter = NULL;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return -ENOMEM;
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, (uint32_t)optimize);
    if (rc == 0)
        rc = bench_fill_filter(ctx, rules);
    int fd = rc < 0 ? -1 : memfd_create("floor-bpf", MFD_CLOEXEC);
    if (rc == 0 && fd < 0)
        rc = -errno;
    if (rc == 0)
        rc = seccomp_export_bpf(ctx, fd);
    seccomp_release(ctx);
    struct stat st;
    if (rc == 0 && (fstat(fd, &st) < 0 || st.st_size <= 0 ||
                    st.st_size % (off_t)sizeof(struct sock_filter) != 0))
        rc = -EINVAL;
    struct sock_filter *insns = rc == 0 ? malloc((size_t)st.st_size) : NULL;
    if (rc == 0 && (!insns || pread(fd, insns, (size_t)st.st_size, 0) != st.st_size))
        rc = -EIO;
    if (fd >= 0)
        close(fd);
    if (rc != 0) {
        free(insns);
        return rc;
    }
    prog->len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
    prog->filter = insns;
    return 0;
}

static inline int bench_floor_filter(struct sock_fprog *prog, unsigned *rules)
{
    return bench_floor_filter_opt(prog, rules, 1);
}

/* CPU cpu s, DATA 256 MiB, FSIZE 10 MiB, NOFILE 100, NPROC 10, CORE 0 */
static inline void bench_floor_limits(rlim_t cpu, int res[BENCH_NLIMITS],
                                      struct rlimit rl[BENCH_NLIMITS])
{
    static const int r[BENCH_NLIMITS] = {RLIMIT_CPU, RLIMIT_DATA, RLIMIT_FSIZE,
                                         RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CORE};
    const rlim_t v[BENCH_NLIMITS] = {cpu, 256UL << 20, 10UL << 20, 100, 10, 0};
    for (int i = 0; i < BENCH_NLIMITS; i++) {
        res[i] = r[i];
        rl[i].rlim_cur = rl[i].rlim_max = v[i];
    }
}

/* In the child, raw system calls only: new session, the rlimits, 65534 when
 * started as root (as sandlock does), no-new-privs, the filter.  0, or the
 * failing step (1 setsid, 2 rlimits, 3 drop root, 4 no_new_privs,
 * 5 seccomp) with errno set. */
static inline int bench_floor_setup(const struct sock_fprog *prog, const int res[BENCH_NLIMITS],
                                    const struct rlimit rl[BENCH_NLIMITS], int drop_root)
{
    if (syscall(SYS_setsid) < 0)
        return 1;
    for (int i = 0; i < BENCH_NLIMITS; i++)
        if (syscall(SYS_prlimit64, 0, res[i], &rl[i], NULL) < 0)
            return 2;
    if (drop_root && (syscall(SYS_setgroups, 0, NULL) < 0 ||
                      syscall(SYS_setresgid, 65534, 65534, 65534) < 0 ||
                      syscall(SYS_setresuid, 65534, 65534, 65534) < 0))
        return 3;
    if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return 4;
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog) < 0)
        return 5;
    return 0;
}

#endif
