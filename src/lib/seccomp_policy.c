#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/*
 * The syscall policy, as libseccomp rules.  Compiled into the build-time
 * generator only: every profile variant becomes BPF once, so a run never
 * pays for libseccomp (src/lib/seccomp.c installs the compiled programs).
 *
 * One filter (a process can have only one seccomp listener) that denies by
 * default with ENOSYS: a syscall newer than this policy looks absent, and
 * C libraries fall back.  Every syscall libseccomp knows gets an explicit
 * action: allowed, blocked (the VIOLATION placeholder), or an errno.  The
 * refused cases of calls allowed only for some arguments, such as a signal
 * to a process outside the sandbox, also fall to the default.  A call whose action does not
 * depend on its arguments is decided by the kernel's per-syscall cache
 * without running the program at all.
 * Non-native ABIs (i386 via int 0x80, x32) take the VIOLATION action.
 */
#include "seccomp_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <termios.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef PR_SET_MM
#define PR_SET_MM 35
#endif
#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#endif
#ifndef PR_GET_AUXV
#define PR_GET_AUXV 0x41555856
#endif

#define NS_FLAGS (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | \
		  CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWTIME)
#define LOW32 0xffffffffu
#define VIOLATION SCMP_ACT_ERRNO(SL_PH_VIOLATION_ERRNO)
#define MEMPROBE SCMP_ACT_ERRNO(SL_PH_MEMPROBE_ERRNO)
#define EXECMEM SCMP_ACT_ERRNO(SL_PH_EXECMEM_ERRNO)
#define EXEC SCMP_ACT_ERRNO(SL_PH_EXEC_ERRNO)
#define LINK SCMP_ACT_ERRNO(SL_PH_LINK_ERRNO)
#define XFSZ SCMP_ACT_ERRNO(SL_PH_XFSZ_ERRNO)
#define TASK SCMP_ACT_ERRNO(SL_PH_TASK_ERRNO)
#define MAX_NR 1024
#define DEFAULT_ACTION SCMP_ACT_ERRNO(ENOSYS)

/* Always blocked: every way to reach another process, the kernel's
 * configuration, or an attack surface a judged program has no use for. */
static const char *const always_blocked[] = {
	/* other processes */
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open",
	"pidfd_getfd", "pidfd_send_signal", "process_madvise", "kcmp",
	"process_mrelease",
	/* kernel attack surface */
	"bpf", "io_uring_setup", "io_uring_enter", "io_uring_register",
	"userfaultfd", "perf_event_open", "membarrier",
	/* mounts and namespaces */
	"mount", "umount2", "fsopen", "fsmount", "fsconfig", "fspick",
	"move_mount", "open_tree", "mount_setattr", "chroot", "pivot_root",
	"setns",
	/* links: a planted symbolic link is how TOCTOU attacks on the
	 * grader start (hard links: see argument_rules) */
	"symlink", "symlinkat",
	/* watching the grader */
	"inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
	"fanotify_init", "fanotify_mark",
	/* the machine */
	"reboot", "kexec_load", "kexec_file_load", "init_module",
	"finit_module", "delete_module", "acct", "swapon", "swapoff",
	"sethostname", "setdomainname", "settimeofday", "clock_settime",
	"clock_adjtime", "adjtimex", "ioperm", "iopl", "modify_ldt",
	"keyctl", "add_key", "request_key", "quotactl", "quotactl_fd",
	"open_by_handle_at", "name_to_handle_at", "lookup_dcookie",
	"nfsservctl", "uselib", "_sysctl", "vhangup", "syslog", "mknod",
	"mknodat",
	"vmsplice",
	/* SysV IPC and POSIX message queues outlive the run */
	"shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl",
	"semtimedop", "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open",
	"mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
	"mq_getsetattr",
	/* other processes' memory policy */
	"migrate_pages", "move_pages",
	/* identity games: the program keeps the identity it was given */
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
	"setfsuid", "setfsgid", "setgroups", "capset",
	NULL,
};

/* Refused as if the kernel lacked them (ENOSYS), because honest libraries
 * try them and fall back: libffi (Python's ctypes callbacks) tries a memfd
 * before plain memory.  memfds are code that never touched the disk, which
 * Landlock does not see. */
static const char *const absent[] = { "memfd_create", "memfd_secret", NULL };

static const char *const network_calls[] = {
	"socket", "socketpair", "connect", "bind", "listen", "accept",
	"accept4", "sendto", "sendmsg", "sendmmsg", NULL,
};

/* Harmless without a socket to use them on; under --no-network the only
 * sockets are a socketpair's, inside the run. */
static const char *const socket_io[] = {
	"recvfrom", "recvmsg", "recvmmsg", "shutdown", "getsockopt", "setsockopt",
	"getsockname", "getpeername", NULL,
};

static const char *const process_calls[] = { "fork", "vfork", NULL };

/* The strict profile's allow-list: what CPython, gcc-compiled C and Node.js
 * need for ordinary computation and file I/O.  Anything else returns ENOSYS,
 * which C libraries treat as "this kernel is old" and fall back from. */
static const char *const strict_allowed[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
	"pwritev", "preadv2", "pwritev2", "open", "openat", "openat2", "close",
	"close_range", "creat", "stat", "fstat", "lstat", "newfstatat", "statx",
	"statfs", "fstatfs", "lseek", "access", "faccessat", "faccessat2",
	"getdents", "getdents64", "getcwd", "chdir", "fchdir", "rename",
	"renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "unlink",
	"unlinkat", "readlink", "readlinkat", "chmod", "fchmod", "fchmodat",
	"umask", "truncate", "ftruncate", "fallocate", "fsync", "fdatasync",
	"flock", "utime", "utimes", "utimensat", "futimesat", "fadvise64",
	"readahead", "copy_file_range", "sendfile", "splice", "tee",
	"getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr",
	"flistxattr", "pipe", "pipe2", "dup", "dup2", "dup3", "poll", "ppoll",
	"select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
	"epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2",
	"signalfd", "signalfd4", "timerfd_create", "timerfd_settime",
	"timerfd_gettime", "mmap", "munmap", "mprotect", "mremap", "msync",
	"mincore", "madvise", "brk", "mlock", "munlock", "mlock2",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending",
	"rt_sigtimedwait", "rt_sigsuspend", "sigaltstack", "pause",
	"nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres",
	"gettimeofday", "time", "getitimer", "setitimer", "alarm",
	"timer_create", "timer_settime", "timer_gettime", "timer_getoverrun",
	"timer_delete", "getpid", "getppid", "gettid", "getuid", "geteuid",
	"getgid", "getegid", "getresuid", "getresgid", "getgroups", "getpgrp",
	"getpgid", "getsid", "capget", "uname", "sysinfo", "times",
	"getrusage", "getrlimit", "setrlimit", "getpriority", "getrandom",
	"sched_yield", "sched_getaffinity", "sched_getparam",
	"sched_getscheduler", "sched_get_priority_max",
	"sched_get_priority_min", "sched_rr_get_interval", "sched_getattr",
	"getcpu", "futex", "futex_waitv", "set_robust_list", "set_tid_address",
	"rseq", "arch_prctl", "exit", "exit_group", "wait4", "waitid",
	"execve", "restart_syscall", "sync_file_range", "get_mempolicy",
	"pkey_alloc", "pkey_free", "pkey_mprotect", NULL,
};

/* Handled argument by argument below, in every profile. */
static const char *const conditional[] = {
	"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"clone", "clone3", "unshare", "personality", "setsid", "setpgid",
	"setpriority", "sched_setaffinity", "sched_setscheduler",
	"sched_setparam", "sched_setattr", "prlimit64", "ioprio_set",
	"get_robust_list", "ioctl", "fcntl", "prctl", "execveat", "mmap",
	"exit", "exit_group", "rt_sigtimedwait",
	"mremap", "rt_sigaction", "socket", "socketpair", "sendto", "mprotect",
	"pkey_mprotect", "execve", "link", "linkat", NULL,
};

static bool in(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static struct scmp_arg_cmp cmp1(unsigned i, enum scmp_compare op, uint64_t a)
{
	return (struct scmp_arg_cmp){ .arg = i, .op = op, .datum_a = a, .datum_b = 0 };
}

/* (argument i & mask) == value */
static struct scmp_arg_cmp masked(unsigned i, uint64_t mask, uint64_t value)
{
	return (struct scmp_arg_cmp){ .arg = i, .op = SCMP_CMP_MASKED_EQ,
				      .datum_a = mask, .datum_b = value };
}

/* One rule.  Nothing to add for a call unknown to this libseccomp, or for
 * what the default action does anyway (libseccomp refuses those). */
static int rule(scmp_filter_ctx c, uint32_t act, const char *name, unsigned n,
		const struct scmp_arg_cmp *cmp)
{
	int nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR || act == DEFAULT_ACTION)
		return 0;
	return seccomp_rule_add_array(c, act, nr, n, cmp);
}

static int rule0(scmp_filter_ctx c, uint32_t act, const char *name)
{
	return rule(c, act, name, 0, NULL);
}

static int rule1(scmp_filter_ctx c, uint32_t act, const char *name, struct scmp_arg_cmp a)
{
	return rule(c, act, name, 1, &a);
}

static int rule2(scmp_filter_ctx c, uint32_t act, const char *name, struct scmp_arg_cmp a,
		 struct scmp_arg_cmp b)
{
	return rule(c, act, name, 2, (struct scmp_arg_cmp[]){ a, b });
}

static int rule3(scmp_filter_ctx c, uint32_t act, const char *name, struct scmp_arg_cmp a,
		 struct scmp_arg_cmp b, struct scmp_arg_cmp d)
{
	return rule(c, act, name, 3, (struct scmp_arg_cmp[]){ a, b, d });
}

/* low 32 bits of argument i equal x */
static struct scmp_arg_cmp eq32(unsigned i, uint32_t x)
{
	return masked(i, LOW32, x);
}

struct refused {
	uint32_t value, action;
};
static int all_but(scmp_filter_ctx c, uint32_t act, const char *name, unsigned i,
		   unsigned bits, const struct refused *r, size_t n);

/* socket: with --no-network no socket that could reach outside can be
 * made; socket() of every family fails quietly with EACCES, as on a host
 * without a network: the C library itself tries AF_UNIX at start-up (glibc
 * asks nscd for user names: bash does it) and the JDK probes AF_INET when it
 * loads libnet for java.nio, so killing there would kill honest programs.
 * What uses a socket to reach out (connect, bind, listen, accept, sendmsg,
 * sendto with an address) stays a violation: only an inherited one could
 * get that far.  A pair of connected AF_UNIX sockets reaches nothing outside
 * the run (asyncio's event loop and the JDK's file channels make one to wake
 * themselves), so socketpair(AF_UNIX) is allowed, and send() on it: sendto
 * without an address. */
static int socket_rules(scmp_filter_ctx c, unsigned v)
{
	uint32_t open_act = (v & SL_FV_STRICT) ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ALLOW;
	if (v & SL_FV_NO_NETWORK) {
		static const struct refused pair_unix[] = { { AF_UNIX, SCMP_ACT_ALLOW } };
		int r = rule0(c, SCMP_ACT_ERRNO(EACCES), "socket");
		r |= all_but(c, VIOLATION, "socketpair", 0, 6, pair_unix, 1);
		r |= rule1(c, SCMP_ACT_ALLOW, "sendto", cmp1(4, SCMP_CMP_EQ, 0));
		r |= rule1(c, VIOLATION, "sendto", cmp1(4, SCMP_CMP_NE, 0));
		return r;
	}
	return rule0(c, open_act, "socket") | rule0(c, open_act, "socketpair") |
	       rule0(c, open_act, "sendto");
}

/* Signals go only to ourselves and our process group.  The kernel reads
 * pids as int, so the low 32 bits are compared: kill(0xffffffff, ...) is
 * kill(-1, ...).  Anything else falls to the default (ENOSYS); where the
 * kernel scopes signals itself (Landlock ABI 6, a pid namespace), positive
 * pids go to the kernel, which answers EPERM outside the sandbox. */
static int signal_rules(scmp_filter_ctx c, unsigned v)
{
	const uint32_t ALLOW = SCMP_ACT_ALLOW;
	static const char *const to_process[] = {
		"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", NULL
	};
	int r = 0;
	for (const char *const *n = to_process; *n; n++) {
		r |= rule1(c, ALLOW, *n, eq32(0, SL_PH_SELF));
		if (v & SL_FV_SIG_WIDE) /* the kernel scopes positive pids for us */
			r |= rule1(c, ALLOW, *n, masked(0, 0x80000000u, 0));
	}
	r |= rule1(c, ALLOW, "kill", eq32(0, 0));             /* our group */
	r |= rule1(c, ALLOW, "kill", eq32(0, SL_PH_NEG_SELF)); /* our group */
	return r;
}

/* Calls that name a process: only ourselves, or the program could renice,
 * pin, throttle or limit the grader running as the same user. */
static int self_only_rules(scmp_filter_ctx c)
{
	const uint32_t ALLOW = SCMP_ACT_ALLOW;
	static const char *const pid_arg0[] = {
		"sched_setaffinity", "sched_setscheduler", "sched_setparam",
		"sched_setattr", "prlimit64", "get_robust_list", NULL
	};
	int r = 0;
	for (const char *const *n = pid_arg0; *n; n++) {
		r |= rule1(c, ALLOW, *n, eq32(0, 0));
		r |= rule1(c, ALLOW, *n, eq32(0, SL_PH_SELF));
	}
	r |= rule2(c, ALLOW, "setpriority", eq32(0, PRIO_PROCESS), eq32(1, 0));
	r |= rule2(c, ALLOW, "setpriority", eq32(0, PRIO_PROCESS), eq32(1, SL_PH_SELF));
	r |= rule2(c, ALLOW, "ioprio_set", eq32(0, 1 /* IOPRIO_WHO_PROCESS */), eq32(1, 0));
	return r;
}

/* clone: never with a namespace flag; without CLONE_THREAD only when new
 * processes are allowed.  Only the low 32 bits are flags.  The refused
 * cases are spelled as "some forbidden bit set" rules so that they take the
 * VIOLATION action rather than the default. */
static int clone_rules(scmp_filter_ctx c, unsigned v)
{
	int r = 0;
	uint32_t must_clear = NS_FLAGS;
	if (v & SL_FV_NO_FORK) {
		r |= rule1(c, TASK, "clone",
			   masked(0, NS_FLAGS | CLONE_THREAD, CLONE_THREAD));
		r |= rule1(c, VIOLATION, "clone", masked(0, CLONE_THREAD, 0));
	} else {
		r |= rule1(c, TASK, "clone", masked(0, NS_FLAGS, 0));
	}
	for (unsigned b = 0; b < 32; b++)
		if (must_clear & (1u << b))
			r |= rule1(c, VIOLATION, "clone",
				   masked(0, 1u << b, 1u << b));
	/* clone3 hides its flags in memory: ENOSYS makes libc use clone. */
	r |= rule0(c, SCMP_ACT_ERRNO(ENOSYS), "clone3");
	/* unshare: refused, except the private copy of the descriptor table
	 * that the sandbox itself takes after installing this filter. */
	r |= rule1(c, SCMP_ACT_ALLOW, "unshare", cmp1(0, SCMP_CMP_EQ, CLONE_FILES));
	r |= rule1(c, VIOLATION, "unshare", cmp1(0, SCMP_CMP_NE, CLONE_FILES));
	return r;
}

/* Allow every low-32-bit value of argument i that has its top bits (from
 * depth on) equal to prefix, except the n values in vals (which take their
 * own actions).  A filter has no "not equal under a mask", so the
 * complement is spelled as the prefixes of a binary trie of the refused
 * values: at most one rule per remaining bit per refused value, none of
 * which matches a refused value. */
static int cover(scmp_filter_ctx c, uint32_t act, const char *name, unsigned i,
		 uint32_t prefix, unsigned depth, const uint32_t *vals, size_t n)
{
	if (n == 0) {
		uint32_t mask = depth ? ~0u << (32 - depth) : 0;
		return rule1(c, act, name, masked(i, mask, prefix));
	}
	if (depth == 32)
		return 0;
	uint32_t bit = 1u << (31 - depth), zero[8], one[8];
	size_t nz = 0, no = 0;
	for (size_t k = 0; k < n; k++) {
		if (vals[k] & bit)
			one[no++] = vals[k];
		else
			zero[nz++] = vals[k];
	}
	return cover(c, act, name, i, prefix, depth + 1, zero, nz) |
	       cover(c, act, name, i, prefix | bit, depth + 1, one, no);
}

/* Every other value of argument i below 2^bits (in its low 32 bits) takes
 * action act; values at or above it that are not refused fall to the
 * default (ENOSYS).  Where the kernel accepts only small values (signal
 * numbers, socket families, prctl and fcntl commands) a narrow domain keeps
 * the trie short: every rule is a BPF program the kernel compiles and
 * checks in every run, and that costs start-up time. */
static int all_but(scmp_filter_ctx c, uint32_t act, const char *name, unsigned i,
		   unsigned bits, const struct refused *r, size_t n)
{
	uint32_t vals[8];
	size_t nv = 0;
	int ret = 0;
	for (size_t k = 0; k < n; k++) {
		if (bits == 32 || r[k].value < (1u << bits))
			vals[nv++] = r[k].value;
		ret |= rule1(c, r[k].action, name, eq32(i, r[k].value));
	}
	return ret | cover(c, act, name, i, 0, 32 - bits, vals, nv);
}

static int allow_all_but(scmp_filter_ctx c, const char *name, unsigned i, unsigned bits,
			 const struct refused *r, size_t n)
{
	return all_but(c, SCMP_ACT_ALLOW, name, i, bits, r, n);
}



/*
 * Memory.  Large requests and every shared anonymous mapping (which
 * RLIMIT_DATA does not count) are shown to the supervisor, which accounts
 * for them.  Memory both writable and executable, and executable anonymous
 * memory (code the program wrote itself), take the EXECMEM placeholder:
 * allowed by default, because JIT compilers need it (V8 in Node.js, the
 * JVM), refused with EACCES under --no-jit.  A filter has no "else", so the
 * cases are spelled out so that rules of different actions never overlap.
 */
static int memory_rules(scmp_filter_ctx c)
{
	const uint32_t W = PROT_WRITE, X = PROT_EXEC, SH = MAP_SHARED, AN = MAP_ANONYMOUS;
	struct scmp_arg_cmp small = cmp1(1, SCMP_CMP_LE, SL_PH_BIG_ALLOC);
	struct scmp_arg_cmp big = cmp1(1, SCMP_CMP_GT, SL_PH_BIG_ALLOC);
	struct scmp_arg_cmp file = masked(3, AN, 0), private_anon = masked(3, SH | AN, AN);
	struct scmp_arg_cmp not_w = masked(2, W, 0), not_x = masked(2, X, 0);
	int r = 0;
	r |= rule1(c, EXECMEM, "mmap", masked(2, W | X, W | X));
	r |= rule2(c, EXECMEM, "mmap", masked(3, AN, AN), masked(2, X, X));
	r |= rule3(c, SCMP_ACT_ALLOW, "mmap", small, file, not_w);
	r |= rule3(c, SCMP_ACT_ALLOW, "mmap", small, file, not_x);
	r |= rule3(c, SCMP_ACT_ALLOW, "mmap", small, private_anon, not_x);
	r |= rule3(c, MEMPROBE, "mmap", big, file, not_w);
	r |= rule3(c, MEMPROBE, "mmap", big, file, not_x);
	r |= rule3(c, MEMPROBE, "mmap", big, private_anon, not_x);
	r |= rule2(c, MEMPROBE, "mmap", masked(3, SH | AN, SH | AN), not_x);
	/* mprotect cannot tell file from anonymous memory: adding PROT_EXEC
	 * at all is what code injection needs */
	static const char *const protect[] = { "mprotect", "pkey_mprotect", NULL };
	for (const char *const *n = protect; *n; n++) {
		r |= rule1(c, EXECMEM, *n, masked(2, X, X));
		r |= rule1(c, SCMP_ACT_ALLOW, *n, masked(2, X, 0));
	}
	return r;
}

/* Calls allowed except for a few argument values. */
static int argument_rules(scmp_filter_ctx c)
{
	const uint32_t EPERM_ = SCMP_ACT_ERRNO(EPERM);
	int r = 0;
	/* Typing into the grader's terminal (the kernel takes the command as
	 * unsigned int: high bits must not slip past), and asking the kernel
	 * to signal a pid of our choosing on I/O. */
	static const struct refused ioctls[] = {
		{ TIOCSTI, VIOLATION }, { TIOCLINUX, VIOLATION },
		{ 0x8901 /* FIOSETOWN */, SCMP_ACT_ERRNO(EPERM) },
		{ 0x8902 /* SIOCSPGRP */, SCMP_ACT_ERRNO(EPERM) },
	};
	r |= allow_all_but(c, "ioctl", 1, 32, ioctls, 4);
	/* ... and learning of the grader's file activity: a directory
	 * watch (dnotify, the inotify of old: a signal on every change
	 * there) or a lease (a signal when another process opens the
	 * file).  Locks stay: programs (SQLite) need them on their files. */
	const struct refused fcntls[] = {
		{ F_SETOWN, EPERM_ }, { F_SETOWN_EX, EPERM_ },
		{ F_NOTIFY, EPERM_ }, { F_SETLEASE, EPERM_ },
	};
	r |= allow_all_but(c, "fcntl", 1, 11, fcntls, 4);
	/* Rewriting our memory map's description; inviting a tracer. */
	/* ... and clearing the parent-death signal, which would let the
	 * program outlive a killed sandbox. */
	/* Options are small numbers but for a few magic values: those are
	 * named here, and any other value of 128 or more falls to ENOSYS. */
	static const struct refused prctls[] = {
		{ PR_SET_MM, VIOLATION }, { PR_SET_PTRACER, VIOLATION },
		{ PR_SET_PDEATHSIG, SCMP_ACT_ERRNO(EPERM) },
		{ PR_SET_VMA, SCMP_ACT_ALLOW }, { PR_GET_AUXV, SCMP_ACT_ALLOW },
	};
	r |= allow_all_but(c, "prctl", 0, 7, prctls, 5);
	/* SIGXFSZ keeps its default action: the program may neither ignore
	 * nor catch it (CPython ignores it at start-up), so passing --fsize
	 * always ends the run as file_size_limit.  The call "succeeds"
	 * without effect. */
	static const struct refused sigactions[] = { { SIGXFSZ, SCMP_ACT_ERRNO(0) } };
	r |= allow_all_but(c, "rt_sigaction", 0, 7, sigactions, 1);
	/* Large memory requests are shown to the supervisor (which lets them
	 * run) so that a refused allocation is judged memory_limit exactly. */
	r |= memory_rules(c);
	r |= rule1(c, SCMP_ACT_ALLOW, "mremap", cmp1(2, SCMP_CMP_LE, SL_PH_BIG_ALLOC));
	r |= rule1(c, MEMPROBE, "mremap", cmp1(2, SCMP_CMP_GT, SL_PH_BIG_ALLOC));
	/* exec of a descriptor (fexecve): a file Landlock may never have seen. */
	r |= rule1(c, VIOLATION, "execveat", masked(4, AT_EMPTY_PATH, AT_EMPTY_PATH));
	r |= rule1(c, EXEC, "execveat", masked(4, AT_EMPTY_PATH, 0));
	/* The sandbox's own exec, known by its arguments: its argv and envp
	 * (addresses in the supervisor's memory, which the program never
	 * sees; one wrong guess is a violation, and there are two of about
	 * 30 bits each to guess).  Any other exec is the program's: allowed,
	 * shown to the supervisor (a --no-fork run: an exec from a thread
	 * loses the parent-death signal), or refused (--no-exec). */
	r |= rule2(c, SCMP_ACT_ALLOW, "execve", cmp1(1, SCMP_CMP_EQ, SL_PH_EXEC_ARGV),
		   cmp1(2, SCMP_CMP_EQ, SL_PH_EXEC_ENVP));
	r |= rule1(c, EXEC, "execve", cmp1(1, SCMP_CMP_NE, SL_PH_EXEC_ARGV));
	r |= rule1(c, EXEC, "execve", cmp1(2, SCMP_CMP_NE, SL_PH_EXEC_ENVP));
	/* Hard links: glibc's sem_open makes every named semaphore with
	 * link() (Python's multiprocessing locks, queues, pools).  Where the
	 * kernel protects them (fs.protected_hardlinks) a link needs a file
	 * the program owns or may write already, which gives it nothing new;
	 * elsewhere they stay violations (the runtime decides: LINK). */
	r |= rule0(c, LINK, "link");
	r |= rule0(c, LINK, "linkat");
	/* A write past --fsize with SIGXFSZ blocked leaves the signal
	 * pending in the writing thread, and the kernel forgets it when that
	 * thread ends (exit: its own end, or the last thread's, which ends the
	 * process), when the process ends (exit_group; a zombie shows none)
	 * or when sigtimedwait takes it: the supervisor looks there (XFSZ). */
	r |= rule0(c, XFSZ, "exit");
	r |= rule0(c, XFSZ, "exit_group");
	r |= rule0(c, XFSZ, "rt_sigtimedwait");
	return r;
}

static scmp_filter_ctx build_main(unsigned v)
{
	scmp_filter_ctx c = seccomp_init(DEFAULT_ACTION);
	if (!c)
		return NULL;
	int r = 0;
	r |= seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, VIOLATION);
	r |= seccomp_attr_set(c, SCMP_FLTATR_CTL_NNP, 0);
	r |= seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	uint32_t arch = seccomp_arch_native();

	for (int nr = 0; nr < MAX_NR && !r; nr++) {
		char *name = seccomp_syscall_resolve_num_arch(arch, nr);
		uint32_t act;
		if (!name)
			act = 0; /* unknown: the default */
		else if (in(conditional, name))
			act = 0; /* below */
		else if (in(always_blocked, name))
			act = VIOLATION;
		else if (in(absent, name))
			act = SCMP_ACT_ERRNO(ENOSYS);
		else if (in(socket_io, name))
			act = (v & SL_FV_STRICT) ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ALLOW;
		else if (in(network_calls, name))
			act = (v & SL_FV_NO_NETWORK) ? VIOLATION
			    : (v & SL_FV_STRICT) ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ALLOW;
		else if (in(process_calls, name))
			act = (v & SL_FV_NO_FORK) ? VIOLATION : TASK;
		else if ((v & SL_FV_STRICT) && !in(strict_allowed, name))
			act = SCMP_ACT_ERRNO(ENOSYS);
		else
			act = SCMP_ACT_ALLOW;
		free(name);
		if (act && act != DEFAULT_ACTION)
			r |= seccomp_rule_add(c, act, nr, 0);
	}
	r |= socket_rules(c, v);
	r |= signal_rules(c, v);
	r |= self_only_rules(c);
	r |= clone_rules(c, v);
	/* personality: only the query and the default; anything else (such
	 * as READ_IMPLIES_EXEC, which would make every readable page
	 * executable) falls to the default, ENOSYS. */
	r |= rule1(c, SCMP_ACT_ALLOW, "personality", eq32(0, 0));
	r |= rule1(c, SCMP_ACT_ALLOW, "personality", eq32(0, LOW32));
	r |= argument_rules(c);
	r |= rule0(c, SCMP_ACT_ERRNO(EPERM), "setsid");
	r |= rule0(c, SCMP_ACT_ERRNO(EPERM), "setpgid");
	/* setsid/setpgid: EPERM: leaving the process
	 * group would let a process outlive the run. */
	if (r) {
		fprintf(stderr, "genfilter: rule failed: %s\n", strerror(-r));
		seccomp_release(c);
		return NULL;
	}
	return c;
}

scmp_filter_ctx sl_policy_build(unsigned variant)
{
	return build_main(variant);
}
