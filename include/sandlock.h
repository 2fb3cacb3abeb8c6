/*
 * sandlock.h - run one untrusted command under an unprivileged Linux sandbox.
 *
 * The library behind the `sandlock` command.  A grader fills a policy, calls
 * sandlock_run() and reads a result.  There is no global state: any number of
 * threads may run sandboxes at once, each with its own policy and result
 * (but on a host without seccomp filters: see sandlock_run()).
 *
 *     struct sandlock_policy p;
 *     struct sandlock_result r;
 *     sandlock_policy_init(&p);            // the original tool's defaults
 *     p.no_fork = p.no_network = p.clean_env = true;
 *     char *argv[] = { "python3", "student.py", NULL };
 *     if (sandlock_run(&p, argv, &r) != 0)
 *         fprintf(stderr, "sandbox failed: %s\n", r.error);
 *     else
 *         printf("%s %d\n", sandlock_verdict_name(r.verdict), r.status);
 *     sandlock_policy_release(&p);
 *
 * Layers, applied in the child between fork and exec, in this order:
 *   process   fds above 2 closed, new session, parent-death signal,
 *             no-new-privs, no core dumps
 *   resources rlimits (CPU, memory, file size, open files, processes, stack)
 *   scope     Landlock and namespaces (when the policy asks for them)
 *   identity  environment, working directory, privilege drop when root
 *   syscalls  the seccomp filter, installed last, just before exec
 * The supervising caller enforces the wall clock and the output cap, and kills
 * every process of the run when it ends.
 */
#ifndef SANDLOCK_H
#define SANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library exports these names only. */
#define SANDLOCK_API __attribute__((visibility("default")))

#define SANDLOCK_VERSION_MAJOR 0
#define SANDLOCK_VERSION_MINOR 3
#define SANDLOCK_VERSION_PATCH 0
#define SANDLOCK_VERSION_STRING "0.3.0"

/* Exit statuses of the command-line tool (and sandlock_result.status). */
#define SANDLOCK_EXIT_TIMEOUT 124  /* the wall clock ran out */
#define SANDLOCK_EXIT_FAILURE 125  /* the sandbox itself failed */
#define SANDLOCK_EXIT_NOEXEC 126   /* command found but not executable */
#define SANDLOCK_EXIT_NOTFOUND 127 /* command not found */

/* Error codes returned by the library's functions. */
enum sandlock_error {
	SANDLOCK_OK = 0,
	SANDLOCK_EINVAL = -1,   /* the policy is invalid */
	SANDLOCK_ENOSYS = -2,   /* a required layer is missing on this kernel */
	SANDLOCK_ESETUP = -3,   /* a setup step failed (see result.error) */
	SANDLOCK_ENOMEM = -4,
	SANDLOCK_ESYSTEM = -5,  /* a system call of the supervisor failed */
};
SANDLOCK_API const char *sandlock_strerror(int err);

/* What happened to the program. */
enum sandlock_verdict {
	SANDLOCK_OK_VERDICT = 0,   /* exited with status 0 */
	SANDLOCK_RUNTIME_ERROR,    /* non-zero exit, or a crash signal */
	SANDLOCK_SIGNALED,         /* killed by a signal from outside */
	SANDLOCK_CPU_LIMIT,        /* RLIMIT_CPU ran out */
	SANDLOCK_WALL_LIMIT,       /* the wall clock ran out */
	SANDLOCK_MEMORY_LIMIT,     /* an allocation was refused, or a kill */
	SANDLOCK_FILE_SIZE_LIMIT,  /* RLIMIT_FSIZE was hit, or the run stored more
				      than its share of a disk of the host's */
	SANDLOCK_OUTPUT_LIMIT,     /* stdout+stderr went past max_output */
	SANDLOCK_SYSCALL_BLOCKED,  /* the seccomp filter stopped a call */
	SANDLOCK_SETUP_FAILED,     /* the program never started */
	SANDLOCK_VERDICT_COUNT
};
SANDLOCK_API const char *sandlock_verdict_name(enum sandlock_verdict v);

/* The layers; a run reports which were active as a bit set. */
enum sandlock_layer {
	SANDLOCK_LAYER_SECCOMP = 1u << 0,
	SANDLOCK_LAYER_SECCOMP_NOTIFY = 1u << 1, /* blocked call named by the supervisor */
	SANDLOCK_LAYER_NO_NEW_PRIVS = 1u << 2,
	SANDLOCK_LAYER_RLIMITS = 1u << 3,
	SANDLOCK_LAYER_LANDLOCK = 1u << 4,
	SANDLOCK_LAYER_LANDLOCK_NET = 1u << 5,
	SANDLOCK_LAYER_LANDLOCK_SCOPE = 1u << 6,
	SANDLOCK_LAYER_USERNS = 1u << 7,
	SANDLOCK_LAYER_PIDNS = 1u << 8,
	SANDLOCK_LAYER_MOUNTNS = 1u << 9,
	SANDLOCK_LAYER_IPCNS = 1u << 10,
	SANDLOCK_LAYER_NETNS = 1u << 11,
	SANDLOCK_LAYER_UTSNS = 1u << 12,
	SANDLOCK_LAYER_PRIVDROP = 1u << 13,  /* root dropped to an unprivileged id */
	SANDLOCK_LAYER_PDEATHSIG = 1u << 14,
	SANDLOCK_LAYER_ISOLATE_TMP = 1u << 15,
	SANDLOCK_LAYER_STRICT = 1u << 16,
	/* a process of the supervisor's that kills the run if the supervisor
	 * dies, where no parent-death signal or pid namespace does it */
	SANDLOCK_LAYER_WATCHDOG = 1u << 17,
	/* Language-level guards, for hosts that give no kernel layer
	 * (serverless): they run inside the program's own process, so a
	 * program can defeat them; each is labelled in docs/guards.md. */
	SANDLOCK_LAYER_GUARD_PYTHON = 1u << 18,  /* CPython audit hook */
	SANDLOCK_LAYER_GUARD_NODE = 1u << 19,    /* Node.js permission model */
	SANDLOCK_LAYER_PRELOAD = 1u << 20,       /* LD_PRELOAD libc hooks */
	/* The WebAssembly backend (--runtime wasm): the program runs as a
	 * wasm32-wasi module under our own WASI host, which gives it only its
	 * arguments, environment, stdio and the directories named; a
	 * boundary of its own, under whatever layers the host gives too. */
	SANDLOCK_LAYER_WASM = 1u << 21,
	/* Where the kernel has no Landlock but the run has a mount namespace:
	 * the filesystem allow-list (--landlock, --ro, --rw) as a root of the
	 * run's own holding only the allowed paths, bound at their places */
	SANDLOCK_LAYER_BIND_ROOT = 1u << 22,
	SANDLOCK_LAYER_COUNT = 23
};
/* Name of one layer bit ("seccomp", "landlock", ...), NULL if unknown. */
SANDLOCK_API const char *sandlock_layer_name(unsigned layer_bit);
/* Parse a layer name into its bit; 0 if unknown. */
SANDLOCK_API unsigned sandlock_layer_from_name(const char *name);

/* DEFAULT: where the kernel allows it, a run that may fork gets a pid
 * namespace (so nothing outlives the run, even if the sandbox is killed)
 * and --isolate-tmp a fresh /tmp (hiding other runs' scratch directories);
 * a --no-fork run without --isolate-tmp gets none. */
enum sandlock_unshare { SANDLOCK_UNSHARE_AUTO, SANDLOCK_UNSHARE_ON, SANDLOCK_UNSHARE_OFF,
			SANDLOCK_UNSHARE_DEFAULT };
enum sandlock_violation { SANDLOCK_VIOLATION_KILL, SANDLOCK_VIOLATION_ERRNO };

/* A guard inside the program, added to the kernel's layers (see
 * docs/guards.md): python (a CPython audit hook installed before the
 * program's code), node (Node.js's permission model), preload (libc's
 * wrappers hooked by LD_PRELOAD, for dynamically linked programs).  auto:
 * the one that fits the command (a Python or Node interpreter, else a
 * dynamically linked program), none where none fits (named in the report's
 * missing).  A guard confines files to the rules --landlock would use
 * (its defaults, or ro/rw), refuses sockets under no_network, and refuses
 * starting other programs; its refusals are errors the program sees, not
 * verdicts (the program could forge them). */
enum sandlock_runtime { SANDLOCK_RUNTIME_NATIVE, SANDLOCK_RUNTIME_WASM };

enum sandlock_guard { SANDLOCK_GUARD_NONE, SANDLOCK_GUARD_AUTO, SANDLOCK_GUARD_PYTHON,
		      SANDLOCK_GUARD_NODE, SANDLOCK_GUARD_PRELOAD };

/*
 * A policy.  sandlock_policy_init() sets the original tool's defaults:
 * cpu 5 s, memory 256 MB, file size 10 MB, 100 open files, 10 processes,
 * stack 8 MB, no wall timeout, no output cap, inherited environment,
 * violation = kill, unshare = default (auto for a run that may fork, off
 * for a --no-fork one)... see each field.  0 in a limit means unlimited.
 * The string lists are owned by the policy: add to them with the
 * sandlock_policy_add_* functions and free them with sandlock_policy_release().
 */
struct sandlock_strlist {
	char **v;
	size_t n, cap;
};

struct sandlock_policy {
	/* resources; 0 = unlimited */
	uint64_t cpu_ms;        /* CPU of the whole run, every process and thread
				 * (5000); RLIMIT_CPU one second past it, per
				 * process, as a backstop */
	uint64_t mem_mb;        /* memory the whole run holds at once, private and
				 * shared (256); RLIMIT_DATA at it and RLIMIT_AS
				 * max(4x, 16 GB), per process, as backstops */
	uint64_t fsize_mb;      /* RLIMIT_FSIZE (10); see fsize_bytes */
	uint64_t disk_mb;       /* what the run may store in its own file system:
				 * the private /tmp, /dev/shm and, with
				 * isolate_tmp, its scratch directory are one
				 * tmpfs of this size (0: twice mem_mb);
				 * needs a mount namespace */
	uint64_t nofile;        /* RLIMIT_NOFILE (100) */
	uint64_t nproc;         /* RLIMIT_NPROC (10), counted per user by the kernel */
	uint64_t stack_mb;      /* RLIMIT_STACK (8) */
	uint64_t timeout_ms;    /* wall clock, enforced by the supervisor (0) */
	uint64_t max_output;    /* bytes of stdout+stderr relayed before output_limit (0) */

	/* security */
	bool no_network;        /* no socket can be created or used */
	bool no_fork;           /* no new process; threads still work */
	bool clean_env;         /* only PATH, HOME, LANG, TMPDIR + env + keep_env */
	bool no_jit;            /* no writable+executable or executable anonymous
				   memory (breaks JITs: Node.js, the JVM) */
	enum sandlock_violation violation;
	struct sandlock_strlist env;      /* "NAME=VALUE" set in the child */
	struct sandlock_strlist keep_env; /* glob patterns kept under clean_env */
	char *workdir;          /* chdir before exec (NULL: stay) */
	uid_t uid;              /* identity when started as root (65534) */
	gid_t gid;              /* (65534) */
	/* As root: each run takes a free uid (= gid) from FIRST..LAST for
	 * itself, instead of uid/gid (0: see uid_pool_off).  Where a run
	 * cannot have namespaces of its own (a container), this keeps
	 * concurrent runs' processes, signals and /dev/shm files apart by the
	 * kernel's own uid checks, as isolate's boxes. */
	uid_t uid_pool_first, uid_pool_last;

	/* filesystem and scope (isolation layer) */
	bool landlock;
	struct sandlock_strlist ro;  /* read + execute */
	struct sandlock_strlist rw;  /* read + write + create + remove */
	bool isolate_tmp;
	enum sandlock_unshare unshare;
	bool strict;
	unsigned require;       /* layers that must be active, else fail (125) */

	/* I/O: paths resolved against the caller's cwd; NULL = inherit */
	char *stdin_path, *stdout_path, *stderr_path;
	/* descriptors to use as the program's stdio instead (-1 = inherit) */
	int stdin_fd, stdout_fd, stderr_fd;

	/* when this descriptor becomes readable the run is stopped (-1: none) */
	int cancel_fd;
	/* A pipe or socket the caller reads (the report's, say): when its
	 * reader is gone (the caller died: killed, crashed) the run is
	 * stopped as cancelled, so nothing outlives the grader (-1: none). */
	int hangup_fd;
	bool verbose;           /* diagnostics on stderr */
	/* Run where the host refuses seccomp filters or no-new-privs (a
	 * serverless function): with rlimits, the clean environment, the
	 * process-group kill, the wall clock and the output cap only.  The
	 * report's layers say what was missing.  Without it such a host
	 * fails closed (SANDLOCK_ENOSYS, status 125). */
	bool best_effort;
	/* Whole-run accounting in a cgroup v2 of the run's own, made under
	 * this directory (an absolute path the caller may write: delegated to
	 * it, or its own as root; the run fails if it cannot be used, unless
	 * best_effort), or with "auto" under the caller's own cgroup where it
	 * may make one there (a run that may fork; else the supervisor
	 * samples).  NULL: none, the supervisor samples /proc (a cgroup costs
	 * about 0.4 ms of start-up).  Used when cpu_ms or mem_mb is set; the
	 * report's accounting says. */
	char *cgroup;
	/* The program may not exec anything once it runs (execve and execveat
	 * are violations; its own start is the sandbox's exec).  Other judges
	 * ban execve after the first, too. */
	bool no_exec;
	/* RLIMIT_FSIZE in bytes, for limits that are not whole megabytes (a
	 * judge's 10,000-byte output file); when not 0 it is used instead of
	 * fsize_mb (0) */
	uint64_t fsize_bytes;
	/* A guard inside the program (SANDLOCK_GUARD_NONE); an explicit one
	 * that cannot be had (the command is not that interpreter, a Node
	 * without a permission model) fails the run unless best_effort. */
	enum sandlock_guard guard;
	/* The old open file system (false): by default, where the kernel has
	 * Landlock, a run reaches the system's directories read-only and only
	 * its own read-write (its working directory, its HOME/TMPDIR, paths in
	 * its command line, a private /tmp where it has one); ro and rw add to
	 * that.  landlock (or strict) with ro/rw is the whole list instead. */
	bool no_landlock;
	/* The program's host name (at most 64 bytes), set in a uts namespace
	 * of the run's own: it needs one, so the run requires the utsns layer
	 * (NULL: the host's name, as it is) */
	char *hostname;
	/* Bind mounts of the run's own, "SRC:DST" (sandlock_policy_add_bind):
	 * SRC shown at DST in a mount namespace of the run's own (required
	 * then), read-only unless SRC lies under an rw path.  DST is an
	 * existing path of SRC's kind, or lies under the run's own /tmp
	 * (unshare on, isolate_tmp or disk), where it is made: the host's
	 * files are never created or changed.  Landlock's rules at SRC
	 * reach it at DST too. */
	struct sandlock_strlist binds;
	/* How the program runs: natively, or (python3 commands) as CPython
	 * compiled to WebAssembly (SANDLOCK_RUNTIME_WASM), whose artifacts
	 * `make wasm` builds; wasm_dir says where they are (NULL: the
	 * environment's SANDLOCK_WASM_DIR, else "wasm" next to the running
	 * executable, else ../lib/sandlock/wasm from it). */
	enum sandlock_runtime runtime;
	char *wasm_dir;
	/* uid_pool_first 0: the default, as root with the default identity (65534:65534) where
	 * the run can make no namespaces (no CAP_SYS_ADMIN: a container), and
	 * its working directory is not uid's (a grader that chowned it to
	 * 65534 keeps 65534): the pool SANDLOCK_UID_POOL_FIRST..LAST, less the
	 * uids /etc/passwd names;
	 * when every one is taken, uid/gid, named in the report's missing.
	 * true: uid/gid always (the CLI's --uid-pool off, or --user). */
	bool uid_pool_off;
	/* Empty directories of the run's own (sandlock_policy_add_tmpfs):
	 * each DST shows a fresh directory of the run's one tmpfs (its /tmp's:
	 * disk_mb, counted against mem_mb), writable by the program, hiding
	 * what the host has there; nsjail's --tmpfsmount, bubblewrap's
	 * --tmpfs.  Needs a mount namespace of the run's own (required
	 * then).  DST is an existing directory, or lies under the run's own
	 * /tmp or under another of these, where it is made: the host's files
	 * are never created or changed.  They are mounted before the binds,
	 * so a bind may show a host path inside one (/dev with /dev/null). */
	struct sandlock_strlist tmpfs;
};

SANDLOCK_API void sandlock_policy_init(struct sandlock_policy *p);
SANDLOCK_API void sandlock_policy_release(struct sandlock_policy *p);
SANDLOCK_API int sandlock_policy_add_env(struct sandlock_policy *p, const char *name_eq_value);
SANDLOCK_API int sandlock_policy_add_keep_env(struct sandlock_policy *p, const char *pattern);
SANDLOCK_API int sandlock_policy_add_ro(struct sandlock_policy *p, const char *path);
SANDLOCK_API int sandlock_policy_add_rw(struct sandlock_policy *p, const char *path);
SANDLOCK_API int sandlock_policy_set_str(char **field, const char *value);
/* A bind mount of the run's own (the binds field); absolute paths. */
SANDLOCK_API int sandlock_policy_add_bind(struct sandlock_policy *p, const char *src,
					  const char *dst);
/* An empty directory of the run's own at dst (the tmpfs field); absolute. */
SANDLOCK_API int sandlock_policy_add_tmpfs(struct sandlock_policy *p, const char *dst);
/* Check a policy; on error writes one line into err (errlen bytes). */
SANDLOCK_API int sandlock_policy_validate(const struct sandlock_policy *p, char *err, size_t errlen);

/* The default uid pool (uid_pool_off). */
#define SANDLOCK_UID_POOL_FIRST 59000
#define SANDLOCK_UID_POOL_LAST 59999
/*
 * The uids the program of a run started now by this process will run as:
 * *first == *last for one uid, a range for a pool (the run takes one that
 * no other run holds).  What a caller checks the program's access with
 * before the run (sandlock(1) warns of a working directory that uid cannot
 * write).  The caller's own uid when it is not root.
 */
SANDLOCK_API void sandlock_policy_program_uids(const struct sandlock_policy *p, uid_t *first,
					       uid_t *last);

/*
 * Options by name: a long option of sandlock(1) that shapes a run, without
 * its dashes, with its value as the command line takes it (NULL for a
 * flag): ("mem", "256"), ("mem", "1.5G"), ("fsize", "10000B"), ("cpu",
 * "0.5"), ("no-network", NULL), ("ro", "/data").  Checked as the command
 * line checks it; 0, or SANDLOCK_EINVAL with one line in err.  Lists (env,
 * ro, rw, ...) add.
 *
 * In --ro and --rw (and ro, rw here) the path "@workdir" is the program's
 * working directory: the workdir field, or the caller's.
 */
SANDLOCK_API int sandlock_policy_set(struct sandlock_policy *p, const char *name,
				     const char *value, char *err, size_t errlen);

/*
 * Language profiles (sandlock(1), PROFILES): a judge's settings for one
 * language, for its compile step or its run step ("compile" or "run";
 * NULL is "run").  profile is a built-in name (c, cpp, go, java, node,
 * python) or a file of the same format, named by a path with a '/'.  The
 * profile's options are applied on top of what p holds: apply it first,
 * then set what differs.  0, or SANDLOCK_EINVAL with one line in err.
 */
SANDLOCK_API int sandlock_policy_apply_profile(struct sandlock_policy *p, const char *profile,
					       const char *step, char *err, size_t errlen);
/* The text of a built-in profile, or NULL; the built-in names, listed. */
SANDLOCK_API const char *sandlock_profile_text(const char *name);
SANDLOCK_API const char *sandlock_profile_names(void);

/* How the whole run's CPU and memory were counted (--cpu, --mem). */
enum sandlock_accounting {
	SANDLOCK_ACCOUNTING_NONE,       /* no limit, or /proc unreadable: per-process rlimits only */
	SANDLOCK_ACCOUNTING_SUPERVISOR, /* sampled from /proc by the supervisor */
	SANDLOCK_ACCOUNTING_CGROUP,     /* the run's own cgroup: CPU and memory */
	/* the run's own cgroup counts the CPU; the memory controller is not
	 * delegated there, and the supervisor samples memory */
	SANDLOCK_ACCOUNTING_CGROUP_CPU,
};
SANDLOCK_API const char *sandlock_accounting_name(enum sandlock_accounting a);

/* What happened. */
struct sandlock_result {
	enum sandlock_verdict verdict;
	int status;             /* the CLI's exit status (see SANDLOCK_EXIT_*) */
	int exit_code;          /* the program's exit code, -1 if signaled */
	int signal;             /* the terminating signal, 0 if none */
	char blocked_syscall[32]; /* name of the blocked call, "" if none */
	uint64_t blocked_args[6];
	uint64_t user_us, sys_us; /* CPU of every process of the run (reaped ones
				 * exactly; samples add what nobody reaped) */
	uint64_t wall_us;       /* from just before exec to the end */
	uint64_t peak_kb;       /* the larger of the biggest process's peak
				 * resident set and the whole run's peak */
	enum sandlock_accounting accounting;
	uint64_t supervisor_cpu_us; /* what watching the run cost us */
	uint64_t stdout_bytes, stderr_bytes; /* relayed bytes (when relayed) */
	unsigned layers;        /* SANDLOCK_LAYER_* active for this run */
	int cancel_signal;      /* the signal read from cancel_fd if it was a signalfd */
	char error[256];        /* one line, set when the sandbox failed */
	/* Layers this host could not give the run, with why, in one line
	 * ("pidns (Operation not permitted), landlock (missing)"); "" if none.
	 * The CLI prints it with -v. */
	char missing[1024];
	uid_t uid;              /* the program's uid (root: --user or --uid-pool);
				 * SANDLOCK_UID_UNKNOWN when the run failed
				 * before it was known (null in the report) */
	/* Where the time went, in microseconds of CLOCK_MONOTONIC read by
	 * the supervisor: setup, from the call until the program's exec has
	 * succeeded (ours: scratch space, rules, namespaces, the filter);
	 * run, from then until the program was reaped; teardown, from then
	 * until the call returns (the rest of the run killed, output drained,
	 * scratch space removed).  A run that never started is all setup. */
	uint64_t setup_us, run_us, teardown_us;
};
#define SANDLOCK_UID_UNKNOWN ((uid_t)-1)

/*
 * Run argv[0] (searched in PATH like execvp) under the policy and wait for
 * it.  Returns 0 when the program ran (whatever it did: read result->verdict)
 * or when the command could not be executed (status 126/127), and a negative
 * sandlock_error when the sandbox could not be set up (status 125,
 * result->error says why, verdict setup_failed).  Never runs the program
 * with fewer layers than the policy requires.
 *
 * It changes the calling process for good (see sandlock(3)): not dumpable
 * (no core dumps, no ptrace or /proc/<pid>/{mem,environ} by the same uid),
 * and a child subreaper, so that orphans of the run come back to be reaped
 * and counted; orphans of the caller's other children come back too, and
 * the caller must reap them.  Restoring either when a run ends would open
 * them under a concurrent run of another thread.
 *
 * Threads may run sandboxes at once.  Except on a host without seccomp
 * filters (a --best-effort run there, layers without SANDLOCK_LAYER_SECCOMP):
 * the program may then leave its process group, and the end of a run
 * kills every child of the caller started after the run's own, another
 * thread's run among them.  There, one run at a time per process, or each
 * under sandlock_spawn(), which gives it a process of its own.
 */
SANDLOCK_API int sandlock_run(const struct sandlock_policy *p, char *const argv[],
		 struct sandlock_result *result);

/* Write the result as one line of JSON (see docs/interface.md), valid
 * UTF-8 whatever bytes its strings held.  0, or sandlock_error when the
 * line could not be written in full (the descriptor's errno is kept). */
SANDLOCK_API int sandlock_report_json(const struct sandlock_policy *p,
			 const struct sandlock_result *r, int fd);

/* The same line in a buffer of malloc'd memory (*buf, *len; free it). */
SANDLOCK_API int sandlock_report_json_buf(const struct sandlock_policy *p,
			 const struct sandlock_result *r, char **buf, size_t *len);

/*
 * What this host offers.  A feature is either available or, when not,
 * missing from this kernel, refused (by a parent seccomp policy such as a
 * container runtime's, or a sysctl), or restricted (by an LSM such as
 * AppArmor's user-namespace restriction: the call works, but what it
 * creates grants nothing).
 */
enum sandlock_state {
	SANDLOCK_AVAILABLE = 0,
	SANDLOCK_MISSING,       /* this kernel does not have it */
	SANDLOCK_REFUSED,       /* a parent seccomp policy or a sysctl refuses it */
	SANDLOCK_RESTRICTED,    /* an LSM takes what it would give */
};
SANDLOCK_API const char *sandlock_state_name(enum sandlock_state s);

struct sandlock_features {
	bool seccomp, seccomp_kill_process, seccomp_notify, seccomp_log;
	int landlock_abi;       /* 0: none */
	bool userns, pdeathsig, close_range, pidfd;
	/* State of each layer, indexed by its bit number (SANDLOCK_LAYER_X
	 * is 1u << i), and of the mechanisms below; why[] is "" or a short
	 * reason ("EPERM from a parent seccomp policy"). */
	unsigned char state[SANDLOCK_LAYER_COUNT];
	char why[SANDLOCK_LAYER_COUNT][80];
	bool unshare_files;     /* unshare(CLONE_FILES) reachable */
	bool namespaces_direct; /* root with CAP_SYS_ADMIN: no user namespace needed */
};
SANDLOCK_API void sandlock_probe_features(struct sandlock_features *f);
/* Print the features, one line per layer: name, state, reason, and for a
 * layer that is not available the one-line remedy. */
SANDLOCK_API void sandlock_print_features(const struct sandlock_features *f, int fd);
/* The same as one JSON object: {"layers":{"seccomp":{"state":...,
 * "reason":...,"remedy":...},...},"landlock_abi":N,...} */
SANDLOCK_API void sandlock_print_features_json(const struct sandlock_features *f, int fd);
/* What to do about a layer that is not available ("" if nothing). */
SANDLOCK_API const char *sandlock_feature_remedy(const struct sandlock_features *f,
						 unsigned layer_bit);

/* ---- asynchronous runs (src/judge/async.c) ---- */

/*
 * One grader thread driving many runs: sandlock_spawn() starts a run and
 * returns at once; sandlock_handle_fd() is a descriptor that poll(2),
 * epoll(7) or select(2) report readable once the run is over (every
 * process of it gone, its scratch space removed); sandlock_wait() then
 * gives the result sandlock_run() would have given and frees the handle.
 *
 *     struct sandlock_handle *h[8];
 *     for (i = 0; i < 8; i++)
 *         if (sandlock_spawn(&p, argv[i], &h[i]) != 0) ... (bad arguments)
 *     ... poll() on sandlock_handle_fd(h[i]), then for each readable one:
 *     rc = sandlock_wait(h[i], &r);      (as sandlock_run's rc and result)
 *
 * Each run has a supervisor process of its own, forked from the caller,
 * which calls sandlock_run(): the caller is not made a subreaper nor
 * undumpable, and may release the policy and argv once spawn returns.
 * The run is stopped (verdict signaled, as the CLI's SIGTERM: status 143)
 * by sandlock_kill(), and as cancelled when the calling process dies or
 * calls exec.  Every handle must be waited for (it holds a child process
 * and two descriptors, close-on-exec).  See sandlock(3), "Asynchronous
 * runs", for what forking from a multithreaded caller means.
 */
struct sandlock_handle;
/* 0 and *h; SANDLOCK_EINVAL (NULL argument, no command, an invalid policy:
 * sandlock_policy_validate says why), SANDLOCK_ENOMEM or SANDLOCK_ESYSTEM
 * (no descriptor for the handle) and *h NULL.  A run that cannot start
 * (fork refused: EAGAIN) is a handle whose result says so. */
SANDLOCK_API int sandlock_spawn(const struct sandlock_policy *p, char *const argv[],
				struct sandlock_handle **h);
/* The descriptor to poll for POLLIN (do not read or close it); -1 for NULL. */
SANDLOCK_API int sandlock_handle_fd(const struct sandlock_handle *h);
/* Block until the run is over, fill *r and free h: returns what
 * sandlock_run() would have (0, or a negative sandlock_error with r->error);
 * SANDLOCK_ESYSTEM when the supervisor process died without a result.
 * SANDLOCK_EINVAL (h not freed) for a NULL argument. */
SANDLOCK_API int sandlock_wait(struct sandlock_handle *h, struct sandlock_result *r);
/* Stop the run, whatever it is doing; returns at once (wait for the
 * result).  A run already over is left as it ended.  0, or SANDLOCK_EINVAL. */
SANDLOCK_API int sandlock_kill(struct sandlock_handle *h);

/* ---- batches: compile once, run many tests (src/judge/batch.c) ---- */

/*
 * A batch (docs/batch.md, sandlock(1) BATCHES): an optional compile step,
 * the run step, an optional checker and N tests, read from a manifest of
 * JSON lines.  The compiled program and its working directory carry over
 * from test to test; every test starts from the same clean state (a fresh
 * private /tmp, TMPDIR and HOME; the working directory as the compile step
 * left it, restored from memory when a test changed it).  Each step is
 * one sandlock_run() in the calling process.
 *
 *     struct sandlock_batch *b;
 *     char err[256];
 *     if (sandlock_batch_load("tests.jsonl", &b, err, sizeof(err)) != 0)
 *         errx(125, "%s", err);
 *     int status = sandlock_batch_run(b, on_line, NULL, err, sizeof(err));
 *     sandlock_batch_free(b);
 */
struct sandlock_batch;

/* One line of results: the compile step's, a test's, or the summary. */
struct sandlock_batch_event {
	const char *step;       /* "compile", "test" or "summary" */
	const char *name;       /* the test's name; NULL otherwise */
	/* sandlock's verdicts, "wrong_answer", "skipped", "checker_failed";
	 * the summary's: "ok", the first failing test's, "compile_error" or
	 * "setup_failed" */
	const char *verdict;
	int status;             /* the test's exit status; the summary's is the batch's */
	uint64_t cpu_ms, wall_ms, peak_kb;
	const struct sandlock_result *result; /* the program's run; NULL if none */
	const char *why;        /* a short reason, or NULL */
	const char *json;       /* the line (no newline), as `sandlock batch` prints it */
	size_t json_len;
};
/* Called for each line, in order; a non-zero return skips the tests left. */
typedef int (*sandlock_batch_fn)(void *ctx, const struct sandlock_batch_event *ev);

/* Read and check a manifest (relative paths in it start at its directory);
 * or one held in memory, with its paths relative to base (NULL: the
 * current directory).  0, or SANDLOCK_EINVAL with one line in err. */
SANDLOCK_API int sandlock_batch_load(const char *path, struct sandlock_batch **b,
				     char *err, size_t errlen);
SANDLOCK_API int sandlock_batch_parse(const char *text, size_t len, const char *base,
				      struct sandlock_batch **b, char *err, size_t errlen);
/* An option applied to every step before the manifest's own (as the
 * command line's, without dashes: ("best-effort", NULL)); set before
 * loading is not possible, so this one is checked when the batch runs. */
SANDLOCK_API int sandlock_batch_option(struct sandlock_batch *b, const char *name,
				       const char *value, char *err, size_t errlen);
/* Where the batch's directory is made (NULL: $TMPDIR, else /tmp), and
 * whether it is kept after the run (for debugging). */
SANDLOCK_API int sandlock_batch_set_dir(struct sandlock_batch *b, const char *dir, bool keep);
/* Run it: 0 every test ok, 1 a test was not (or the compile step failed),
 * 125 the batch could not be run (err says why; the summary is still
 * given to fn). */
SANDLOCK_API int sandlock_batch_run(const struct sandlock_batch *b, sandlock_batch_fn fn,
				    void *ctx, char *err, size_t errlen);
SANDLOCK_API void sandlock_batch_free(struct sandlock_batch *b);

#ifdef __cplusplus
}
#endif
#endif
