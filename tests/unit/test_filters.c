/*
 * Every compiled seccomp filter (build/seccomp_filters.c, made by
 * tools/genfilter.c), checked without running a process: each profile
 * variant x each ABI (x86-64, i386, x32) x each system call number is run
 * through the classic-BPF evaluator below and its answer compared with the
 * tables the filter is built from (src/lib/seccomp_policy.c, included here for
 * its lists), plus a hand-written table of the calls whose answer is the
 * point of a flag (--no-fork, --no-network, --strict, --no-exec, default)
 * and of the argument-dependent rules.  A kernel is not needed: the same
 * words the runtime installs are evaluated (before the runtime patches the
 * placeholders, whose meaning per flag is checked at the end).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/lib/seccomp_policy.c"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stdio.h>

#ifndef AUDIT_ARCH_X86_64
#define AUDIT_ARCH_X86_64 0xc000003eu
#endif
#ifndef AUDIT_ARCH_I386
#define AUDIT_ARCH_I386 0x40000003u
#endif
#define X32_BIT 0x40000000u

/* ------------------------------------------------------------ evaluator */

struct call {
	int32_t nr;
	uint32_t arch;
	uint64_t ip;
	uint64_t args[6];
};

static uint32_t load_word(const struct call *d, uint32_t off, int *bad)
{
	/* struct seccomp_data, little-endian: nr, arch, ip, args[6] */
	unsigned char buf[64];
	memcpy(buf, &d->nr, 4);
	memcpy(buf + 4, &d->arch, 4);
	memcpy(buf + 8, &d->ip, 8);
	memcpy(buf + 16, d->args, 48);
	if (off % 4 || off + 4 > sizeof(buf)) {
		*bad = 1;
		return 0;
	}
	uint32_t w;
	memcpy(&w, buf + off, 4);
	return w;
}

/* Classic BPF as the kernel's seccomp checker accepts it; returns the
 * action word, or 0xdead0000 | pc for a program that misbehaves (a jump
 * out of range, a division by zero, no return). */
static uint32_t bpf_run(const struct sock_filter *f, size_t len, const struct call *d)
{
	uint32_t A = 0, X = 0, M[BPF_MEMWORDS] = { 0 };
	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *i = &f[pc];
		uint32_t src = BPF_SRC(i->code) == BPF_X ? X : i->k;
		int bad = 0;
		switch (BPF_CLASS(i->code)) {
		case BPF_LD:
			if (BPF_MODE(i->code) == BPF_ABS && BPF_SIZE(i->code) == BPF_W)
				A = load_word(d, i->k, &bad);
			else if (BPF_MODE(i->code) == BPF_IMM)
				A = i->k;
			else if (BPF_MODE(i->code) == BPF_MEM && i->k < BPF_MEMWORDS)
				A = M[i->k];
			else if (BPF_MODE(i->code) == BPF_LEN)
				A = sizeof(struct seccomp_data);
			else
				bad = 1;
			break;
		case BPF_LDX:
			if (BPF_MODE(i->code) == BPF_IMM)
				X = i->k;
			else if (BPF_MODE(i->code) == BPF_MEM && i->k < BPF_MEMWORDS)
				X = M[i->k];
			else if (BPF_MODE(i->code) == BPF_LEN)
				X = sizeof(struct seccomp_data);
			else
				bad = 1;
			break;
		case BPF_ST:
		case BPF_STX:
			if (i->k >= BPF_MEMWORDS)
				bad = 1;
			else
				M[i->k] = BPF_CLASS(i->code) == BPF_ST ? A : X;
			break;
		case BPF_ALU:
			switch (BPF_OP(i->code)) {
			case BPF_ADD: A += src; break;
			case BPF_SUB: A -= src; break;
			case BPF_MUL: A *= src; break;
			case BPF_DIV: if (!src) bad = 1; else A /= src; break;
			case BPF_MOD: if (!src) bad = 1; else A %= src; break;
			case BPF_OR: A |= src; break;
			case BPF_AND: A &= src; break;
			case BPF_XOR: A ^= src; break;
			case BPF_LSH: A = src < 32 ? A << src : 0; break;
			case BPF_RSH: A = src < 32 ? A >> src : 0; break;
			case BPF_NEG: A = 0u - A; break;
			default: bad = 1;
			}
			break;
		case BPF_JMP: {
			size_t to;
			if (BPF_OP(i->code) == BPF_JA) {
				to = pc + 1 + i->k;
			} else {
				int t;
				switch (BPF_OP(i->code)) {
				case BPF_JEQ: t = A == src; break;
				case BPF_JGT: t = A > src; break;
				case BPF_JGE: t = A >= src; break;
				case BPF_JSET: t = (A & src) != 0; break;
				default: t = 0; bad = 1;
				}
				to = pc + 1 + (t ? i->jt : i->jf);
			}
			if (to >= len)
				bad = 1;
			else
				pc = to - 1;
			break;
		}
		case BPF_RET:
			return BPF_RVAL(i->code) == BPF_A ? A : i->k;
		case BPF_MISC:
			if (BPF_MISCOP(i->code) == BPF_TAX)
				X = A;
			else
				A = X;
			break;
		default:
			bad = 1;
		}
		if (bad)
			return 0xdead0000u | (uint32_t)pc;
	}
	return 0xdead0000u | (uint32_t)len;
}

/* ------------------------------------------------------------ expectations */

#define ALLOW SCMP_ACT_ALLOW
#define NOSYS SCMP_ACT_ERRNO(ENOSYS)

static const char *act_name(uint32_t a, char *buf, size_t n)
{
	if (a == ALLOW) snprintf(buf, n, "allow");
	else if (a == SL_PH_VIOLATION) snprintf(buf, n, "violation");
	else if (a == SL_PH_EXEC) snprintf(buf, n, "exec");
	else if (a == SL_PH_EXECMEM) snprintf(buf, n, "execmem");
	else if (a == SL_PH_MEMPROBE) snprintf(buf, n, "memprobe");
	else if (a == SL_PH_LINK) snprintf(buf, n, "link");
	else if (a == SL_PH_TASK) snprintf(buf, n, "task");
	else if (a == SL_PH_XFSZ) snprintf(buf, n, "xfsz");
	else if ((a & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO)
		snprintf(buf, n, "errno %u", a & SECCOMP_RET_DATA);
	else snprintf(buf, n, "0x%08x", a);
	return buf;
}

static const char *flags_name(unsigned v, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s", v ? "" : "default", v & SL_FV_STRICT ? " --strict" : "",
		 v & SL_FV_NO_FORK ? " --no-fork" : "", v & SL_FV_NO_NETWORK ? " --no-network" : "",
		 v & SL_FV_SIG_WIDE ? " (signals scoped by the kernel)" : "");
	return buf[0] == ' ' ? buf + 1 : buf;
}

static int mismatches;

static void expect(unsigned v, const char *abi, const char *what, const struct call *d,
		   uint32_t want)
{
	uint32_t got = bpf_run(sl_filters[v].insns, sl_filters[v].len, d);
	if (got == want)
		return;
	char a[32], b[32], fl[96];
	if (mismatches++ < 40)
		fprintf(stderr, "filter %u (%s), %s, %s: %s, want %s\n", v, flags_name(v, fl, sizeof(fl)),
			abi, what, act_name(got, a, sizeof(a)), act_name(want, b, sizeof(b)));
}

/* What the policy's tables say of a call whose answer does not depend on
 * its arguments (the order of build_main, in outcomes). */
static uint32_t table_action(unsigned v, const char *name)
{
	if (in(always_blocked, name))
		return SL_PH_VIOLATION;
	if (in(absent, name))
		return NOSYS;
	if (in(socket_io, name))
		return v & SL_FV_STRICT ? NOSYS : ALLOW;
	if (in(network_calls, name))
		return v & SL_FV_NO_NETWORK ? SL_PH_VIOLATION : v & SL_FV_STRICT ? NOSYS : ALLOW;
	if (in(process_calls, name))
		/* TASK: allowed, or shown to the supervisor that counts the
		 * run's tasks (no user namespace of its own) */
		return v & SL_FV_NO_FORK ? SL_PH_VIOLATION : SL_PH_TASK;
	if ((v & SL_FV_STRICT) && !in(strict_allowed, name))
		return NOSYS;
	return ALLOW;
}

static struct call native(int nr)
{
	return (struct call){ .nr = nr, .arch = AUDIT_ARCH_X86_64 };
}

/* Every variant x every x86-64 call number against the tables; i386 and
 * x32 numbers are a violation whatever the call. */
static void every_call_of_every_abi(void **state)
{
	(void)state;
	mismatches = 0;
	unsigned checked = 0;
	for (unsigned v = 0; v < SL_FV_COUNT; v++) {
		for (int nr = 0; nr < MAX_NR; nr++) {
			struct call d = native(nr);
			const char *name = sl_names_native[nr];
			char what[96];
			snprintf(what, sizeof(what), "%s (%d)", name ? name : "unknown", nr);
			if (!name)
				expect(v, "x86-64", what, &d, NOSYS);
			else if (!in(conditional, name))
				expect(v, "x86-64", what, &d, table_action(v, name));
			/* the argument-dependent ones: arguments_decide below */
			d.arch = AUDIT_ARCH_I386;
			expect(v, "i386", what, &d, SL_PH_VIOLATION);
			d = native((int)(nr | X32_BIT));
			expect(v, "x32", what, &d, SL_PH_VIOLATION);
			checked += 3;
		}
		/* numbers past the tables: the default, ENOSYS */
		struct call d = native(5000);
		expect(v, "x86-64", "nr 5000", &d, NOSYS);
	}
	fprintf(stderr, "%u calls checked in %u filters\n", checked, SL_FV_COUNT);
	assert_int_equal(mismatches, 0);
}

/* The calls each flag is about, written out by hand (not from the tables:
 * a call dropped from a table by mistake fails here). */
static void what_each_flag_decides(void **state)
{
	(void)state;
	mismatches = 0;
	static const char *const always_violation[] = {
		"ptrace", "process_vm_readv", "bpf", "mount", "umount2", "chroot",
		"pivot_root", "setns", "setuid", "setresuid", "setgroups", "capset",
		"keyctl", "init_module", "reboot", "kexec_load", "symlink",
		"inotify_init1", "fanotify_init", "io_uring_setup", "userfaultfd",
		"perf_event_open", "shmget", "msgget", "mq_open", "pidfd_getfd",
		"open_by_handle_at", "iopl", "modify_ldt", "mknod", NULL,
	};
	static const char *const always_allowed[] = {
		"read", "write", "openat", "close", "mmap" /* args 0: small, file */,
		"brk", "futex", "clock_gettime", "getpid", "pipe2",
		"epoll_wait", "rt_sigreturn", "getrandom", "wait4", NULL,
	};
	/* allowed by default, ENOSYS under --strict */
	static const char *const strict_refuses[] = {
		"setxattr", "fchown", "chown", "sched_setscheduler" /* pid 0 */,
		"io_setup", "mlockall", "sync", "syncfs", "name_to_handle_at" /* blocked */,
		NULL,
	};
	for (unsigned v = 0; v < SL_FV_COUNT; v++) {
		bool strict = v & SL_FV_STRICT, nofork = v & SL_FV_NO_FORK, nonet = v & SL_FV_NO_NETWORK;
		for (const char *const *n = always_violation; *n; n++) {
			struct call d = native(seccomp_syscall_resolve_name(*n));
			expect(v, "x86-64", *n, &d, SL_PH_VIOLATION);
		}
		for (const char *const *n = always_allowed; *n; n++) {
			struct call d = native(seccomp_syscall_resolve_name(*n));
			expect(v, "x86-64", *n, &d, ALLOW);
		}
		for (const char *const *n = strict_refuses; *n; n++) {
			struct call d = native(seccomp_syscall_resolve_name(*n));
			uint32_t want = strict ? NOSYS : ALLOW;
			if (!strcmp(*n, "name_to_handle_at"))
				want = SL_PH_VIOLATION;
			if (!strcmp(*n, "sched_setscheduler"))
				want = ALLOW; /* pid 0: ourselves, allowed in every profile */
			expect(v, "x86-64", *n, &d, want);
		}
		/* a thread's or a process's end and sigtimedwait: where a
		 * blocked SIGXFSZ is last seen (XFSZ: allowed, or shown to the
		 * supervisor under --fsize) */
		static const char *const xfsz[] = { "exit", "exit_group", "rt_sigtimedwait", NULL };
		for (const char *const *n = xfsz; *n; n++) {
			struct call d = native(seccomp_syscall_resolve_name(*n));
			expect(v, "x86-64", *n, &d, SL_PH_XFSZ);
		}
		struct call d = native(seccomp_syscall_resolve_name("fork"));
		expect(v, "x86-64", "fork", &d, nofork ? SL_PH_VIOLATION : SL_PH_TASK);
		d = native(seccomp_syscall_resolve_name("vfork"));
		expect(v, "x86-64", "vfork", &d, nofork ? SL_PH_VIOLATION : SL_PH_TASK);
		static const char *const reach_out[] = { "connect", "bind", "listen", "accept4",
							 "sendmsg", NULL };
		for (const char *const *n = reach_out; *n; n++) {
			d = native(seccomp_syscall_resolve_name(*n));
			expect(v, "x86-64", *n, &d, nonet ? SL_PH_VIOLATION : strict ? NOSYS : ALLOW);
		}
		d = native(seccomp_syscall_resolve_name("memfd_create"));
		expect(v, "x86-64", "memfd_create", &d, NOSYS);
	}
	assert_int_equal(mismatches, 0);
}

struct argcase {
	const char *what, *name;
	uint64_t a0, a1, a2, a3, a4;
	/* the answer with no flag, and per flag where it differs (0: same) */
	uint32_t def, strict, nofork, nonet, sigwide;
};

#define PH_ARGV SL_PH_EXEC_ARGV
#define PH_ENVP SL_PH_EXEC_ENVP
#define SELF SL_PH_SELF

/* The argument-dependent rules, case by case. */
static const struct argcase cases[] = {
	{ "thread", "clone", CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD, 0, 0, 0, 0,
	  SL_PH_TASK, 0, 0, 0, 0 },
	{ "new process", "clone", SIGCHLD, 0, 0, 0, 0, SL_PH_TASK, 0, SL_PH_VIOLATION, 0, 0 },
	{ "new user namespace", "clone", SIGCHLD | CLONE_NEWUSER, 0, 0, 0, 0, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "thread with a pid namespace", "clone", CLONE_THREAD | CLONE_NEWPID, 0, 0, 0, 0,
	  SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "flags in memory", "clone3", 0, 0, 0, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "private descriptor table", "unshare", CLONE_FILES, 0, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "new namespaces", "unshare", CLONE_NEWUSER | CLONE_NEWNS, 0, 0, 0, 0, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "ourselves", "kill", SELF, SIGTERM, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "our group", "kill", 0, SIGTERM, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "our group by number", "kill", (uint32_t)SL_PH_NEG_SELF, SIGTERM, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "everyone", "kill", 0xffffffffu, SIGKILL, 0, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "everyone, high bits set", "kill", 0x1ffffffffull, SIGKILL, 0, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "another pid", "kill", 4242, SIGKILL, 0, 0, 0, NOSYS, 0, 0, 0, ALLOW },
	{ "another thread", "tgkill", 4242, 4243, SIGKILL, 0, 0, NOSYS, 0, 0, 0, ALLOW },
	{ "any family", "socket", AF_INET, SOCK_STREAM, 0, 0, 0, ALLOW, NOSYS, 0, SCMP_ACT_ERRNO(EACCES), 0 },
	{ "unix pair", "socketpair", AF_UNIX, SOCK_STREAM, 0, 0, 0, ALLOW, NOSYS, 0, ALLOW, 0 },
	{ "inet pair", "socketpair", AF_INET, SOCK_STREAM, 0, 0, 0, ALLOW, NOSYS, 0, SL_PH_VIOLATION, 0 },
	{ "send to an address", "sendto", 3, 0, 1, 0, 0x7000, ALLOW, NOSYS, 0, SL_PH_VIOLATION, 0 },
	{ "send on a pair", "sendto", 3, 0, 1, 0, 0, ALLOW, NOSYS, 0, ALLOW, 0 },
	{ "the sandbox's own exec", "execve", 0x1000, PH_ARGV, PH_ENVP, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "the program's exec", "execve", 0x1000, 0x2000, 0x3000, 0, 0, SL_PH_EXEC, 0, 0, 0, 0 },
	{ "a guessed argv only", "execve", 0x1000, PH_ARGV, 0x3000, 0, 0, SL_PH_EXEC, 0, 0, 0, 0 },
	{ "exec of a descriptor", "execveat", 3, 0x1000, 0, 0, AT_EMPTY_PATH, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "exec by path", "execveat", AT_FDCWD, 0x1000, 0, 0, 0, SL_PH_EXEC, 0, 0, 0, 0 },
	{ "writable and executable", "mmap", 0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	  MAP_PRIVATE | MAP_ANONYMOUS, 0, SL_PH_EXECMEM, 0, 0, 0, 0 },
	{ "small heap", "mmap", 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, 0,
	  ALLOW, 0, 0, 0, 0 },
	{ "big heap", "mmap", 0, SL_PH_BIG_ALLOC + 1, PROT_READ | PROT_WRITE,
	  MAP_PRIVATE | MAP_ANONYMOUS, 0, SL_PH_MEMPROBE, 0, 0, 0, 0 },
	{ "shared anonymous", "mmap", 0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, 0,
	  SL_PH_MEMPROBE, 0, 0, 0, 0 },
	{ "made executable", "mprotect", 0x1000, 4096, PROT_READ | PROT_EXEC, 0, 0, SL_PH_EXECMEM, 0, 0, 0, 0 },
	{ "made read-only", "mprotect", 0x1000, 4096, PROT_READ, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "typing into the terminal", "ioctl", 0, TIOCSTI, 0, 0, 0, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "TIOCSTI with high bits", "ioctl", 0, 0x100000000ull | TIOCSTI, 0, 0, 0, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "terminal attributes", "ioctl", 0, TCGETS, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "SIGIO to a pid", "fcntl", 3, F_SETOWN, 4242, 0, 0, SCMP_ACT_ERRNO(EPERM), 0, 0, 0, 0 },
	{ "a lock", "fcntl", 3, F_SETLK, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "inviting a tracer", "prctl", PR_SET_PTRACER, 0, 0, 0, 0, SL_PH_VIOLATION, 0, 0, 0, 0 },
	{ "dropping the parent-death signal", "prctl", PR_SET_PDEATHSIG, 0, 0, 0, 0,
	  SCMP_ACT_ERRNO(EPERM), 0, 0, 0, 0 },
	{ "naming a thread", "prctl", PR_SET_NAME, 0, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "ignoring SIGXFSZ", "rt_sigaction", SIGXFSZ, 0x1000, 0, 8, 0, SCMP_ACT_ERRNO(0), 0, 0, 0, 0 },
	{ "a handler", "rt_sigaction", SIGINT, 0x1000, 0, 8, 0, ALLOW, 0, 0, 0, 0 },
	{ "READ_IMPLIES_EXEC", "personality", 0x0400000, 0, 0, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "the query", "personality", 0xffffffffu, 0, 0, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "a hard link", "link", 0x1000, 0x2000, 0, 0, 0, SL_PH_LINK, 0, 0, 0, 0 },
	{ "a new session", "setsid", 0, 0, 0, 0, 0, SCMP_ACT_ERRNO(EPERM), 0, 0, 0, 0 },
	{ "renicing another pid", "setpriority", PRIO_PROCESS, 4242, 5, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "renicing ourselves", "setpriority", PRIO_PROCESS, 0, 5, 0, 0, ALLOW, 0, 0, 0, 0 },
	{ "another's limits", "prlimit64", 4242, RLIMIT_NPROC, 0x1000, 0, 0, NOSYS, 0, 0, 0, 0 },
	{ "our limits", "prlimit64", 0, RLIMIT_NPROC, 0, 0x1000, 0, ALLOW, 0, 0, 0, 0 },
};

static void arguments_decide(void **state)
{
	(void)state;
	mismatches = 0;
	for (unsigned v = 0; v < SL_FV_COUNT; v++) {
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			const struct argcase *c = &cases[k];
			struct call d = native(seccomp_syscall_resolve_name(c->name));
			uint64_t a[6] = { c->a0, c->a1, c->a2, c->a3, c->a4, 0 };
			memcpy(d.args, a, sizeof(a));
			/* the most specific flag wins: --no-network, then
			 * --strict, then --no-fork, then kernel-scoped signals */
			uint32_t want = c->def;
			if ((v & SL_FV_SIG_WIDE) && c->sigwide)
				want = c->sigwide;
			if ((v & SL_FV_NO_FORK) && c->nofork)
				want = c->nofork;
			if ((v & SL_FV_STRICT) && c->strict)
				want = c->strict;
			if ((v & SL_FV_NO_NETWORK) && c->nonet)
				want = c->nonet;
			char what[128];
			snprintf(what, sizeof(what), "%s (%s)", c->name, c->what);
			expect(v, "x86-64", what, &d, want);
		}
	}
	assert_int_equal(mismatches, 0);
}

/* The placeholders' meaning per flag is the runtime's (src/lib/seccomp.c): a
 * violation kills or is shown to the supervisor; --no-exec turns EXEC into
 * a violation; --no-jit turns EXECMEM into EACCES.  What is checked here is
 * that every placeholder the runtime patches is one the filter uses, and
 * that no filter returns a word the runtime would not patch and the kernel
 * would not take (an unknown action is a kill). */
static void every_return_is_known(void **state)
{
	(void)state;
	for (unsigned v = 0; v < SL_FV_COUNT; v++) {
		bool seen_violation = false, seen_exec = false;
		for (size_t i = 0; i < sl_filters[v].len; i++) {
			const struct sock_filter *f = &sl_filters[v].insns[i];
			if (BPF_CLASS(f->code) != BPF_RET)
				continue;
			uint32_t k = f->k;
			seen_violation |= k == SL_PH_VIOLATION;
			seen_exec |= k == SL_PH_EXEC;
			bool known = k == SECCOMP_RET_ALLOW ||
				     (k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
			if (!known)
				fprintf(stderr, "filter %u returns 0x%08x at %zu\n", v, k, i);
			assert_true(known);
		}
		assert_true(seen_violation);
		assert_true(seen_exec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_call_of_every_abi),
		cmocka_unit_test(what_each_flag_decides),
		cmocka_unit_test(arguments_decide),
		cmocka_unit_test(every_return_is_known),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
