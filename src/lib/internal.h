/* Internal interfaces between the library's files.  Not installed. */
#ifndef SANDLOCK_INTERNAL_H
#define SANDLOCK_INTERNAL_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sandlock.h"

#include <signal.h>
#include <sys/syscall.h>

/* calls newer than some libc headers: the numbers are the same on every
 * architecture (the unified table of 5.1 onwards) */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

#include <linux/filter.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Code that runs in the child before exec, on a stack of our own, sharing
 * the supervisor's memory: kept out of sanitizer instrumentation (which
 * would allocate, and warn about the foreign stack). */
#define SL_CHILD __attribute__((no_sanitize("address", "undefined")))

#define SL_MAX_EXEC_PATHS 64
#define SL_MAX_KEEP 32
#define SL_MAX_BINDS 32 /* policy binds: SRC:DST mounts of the run's own */
#define SL_MAX_TMPFS 16 /* policy tmpfs: empty directories of the run's own */

/* The setup steps of the child, in order; a failing step is reported to
 * the supervisor with its errno. */
enum sl_step {
	SL_STEP_NONE = 0,
	SL_STEP_SIGNALS,
	SL_STEP_SESSION,
	SL_STEP_PDEATHSIG,
	SL_STEP_PARENT_GONE,
	SL_STEP_NO_NEW_PRIVS,
	SL_STEP_RLIMITS,
	SL_STEP_USERNS,
	SL_STEP_MOUNTS,
	SL_STEP_HOSTNAME,
	SL_STEP_WORKDIR,
	SL_STEP_PRIVDROP,
	SL_STEP_LANDLOCK, /* after the user namespace's maps (spawn.c) */
	SL_STEP_SECCOMP,
	SL_STEP_FDS,
	SL_STEP_EXEC,
	SL_STEP_COUNT
};
const char *sl_step_name(enum sl_step s);

/* How the child takes a descriptor table of its own after installing the
 * filter (whose listener must land in the supervisor's table first): one
 * path per host, chosen from the probe. */
enum sl_fd_mode {
	SL_FD_CLOSE_RANGE,       /* close_range(~0, ~0, CLOSE_RANGE_UNSHARE) */
	SL_FD_UNSHARE,           /* unshare(CLONE_FILES) (kernels before 5.9) */
	SL_FD_PRIVATE,           /* both refused: no shared table, no listener */
};

/* One of the supervisor's copies of a standard stream (relay.c): from the
 * program's pipe to the grader's output, or from a terminal on the
 * grader's stdin to the program's.  Never blocks. */
struct sl_relay {
	int from, to;            /* -1 once closed */
	bool to_socket;          /* sent with MSG_DONTWAIT | MSG_NOSIGNAL */
	bool feeds_program;      /* stdin: the end of the source closes the sink */
	bool capped;             /* --max-output reached: nothing more is read */
	uint64_t *count;         /* bytes that went through, or NULL */
	char *buf;
	size_t len, off;         /* bytes waiting for the destination */
};
/* fd moved to 3 or above (the child dup2s its stdio over 0..2), or -1. */
int sl_fd_above_stdio(int fd);
/* A description of fd of our own, opened non-blocking for access where fd
 * is a pipe or a terminal (a dup of fd otherwise); -1 on error. */
int sl_relay_reopen(int fd, int access);
int sl_relay_init(struct sl_relay *r, int from, int to, bool feeds_program);
/* The descriptor to poll and for what (0: nothing to wait for). */
short sl_relay_events(const struct sl_relay *r, int *fd);
/* Copy what can be copied now; false once the cap (over every relay that
 * shares total) is passed. */
bool sl_relay_move(struct sl_relay *r, uint64_t cap, uint64_t *total);
/* After the run: copy what its pipe still holds, then close. */
void sl_relay_finish(struct sl_relay *r, uint64_t cap, uint64_t *total, bool *over);
void sl_relay_close(struct sl_relay *r);

/* Everything a run needs, prepared by the supervisor before the child is
 * created, so that the child (which shares the supervisor's memory until it
 * calls exec) only makes system calls. */
/* cgroup.c: the run's own cgroup v2, where one is delegated (see there) */
struct sl_cgroup {
	int dir;                 /* its directory (flock held), -1 */
	int procs;               /* its cgroup.procs until the child is in, -1 */
	char name[64];
	bool ok;                 /* made, with cpu.stat */
	volatile bool joined;    /* the child wrote itself in (set by the child) */
	bool memory;             /* memory.max holds --mem */
	bool has_kill;           /* cgroup.kill (5.14) */
	bool oom;                /* memory.events counted an OOM kill */
};
void sl_cgroup_init(struct sl_cgroup *cg);
int sl_cgroup_self(char *path, size_t len, char *why, size_t whylen);
int sl_cgroup_create(struct sl_cgroup *cg, const struct sandlock_policy *p,
		     char *why, size_t whylen);
void sl_cgroup_join(struct sl_cgroup *cg); /* child */
void sl_cgroup_started(struct sl_cgroup *cg); /* the child is in: procs closed */
uint64_t sl_cgroup_cpu_us(const struct sl_cgroup *cg);
uint64_t sl_cgroup_mem_kb(struct sl_cgroup *cg);
uint64_t sl_cgroup_peak_kb(const struct sl_cgroup *cg);
void sl_cgroup_kill(const struct sl_cgroup *cg);
void sl_cgroup_remove(struct sl_cgroup *cg);
bool sl_cgroup_describe(char *dir, size_t len, bool *memory, char *why, size_t whylen);

/* outfile.c: --stdout/--stderr FILE, put in place when the run is over */
struct sl_outfile {
	int fd;                  /* what the program writes (ours) */
	int dir;                 /* FILE's directory; -1: FILE opened as it is */
	char *base;
	char tmp[40];            /* our name there, while it has one */
	bool anonymous;          /* O_TMPFILE: no name until placed */
	bool placed;
	bool keep_owner;         /* FILE existed: its owner and mode */
	uid_t uid;
	gid_t gid;
	mode_t mode;
};
int sl_outfile_open(struct sl_outfile *o, const char *path); /* the fd, or -1 */
bool sl_outfile_same(const struct sl_outfile *o, const char *path);
int sl_outfile_place(struct sl_outfile *o, int64_t size); /* size -1: as it is */
void sl_outfile_release(struct sl_outfile *o);

/* stored.c: the places on a file system of the host's that the run may write */
#define SL_STORED_MAX 16
#define SL_STORED_WATCHES 64
struct sl_stored {
	int n;
	struct sl_stored_place {
		int fd;              /* O_PATH, ours */
		dev_t dev;
		ino_t ino;
		int wd;              /* its inotify watch, -1 */
		uint64_t share_kb;   /* the most the run may hold on that file system */
		bool disk;           /* not RAM: charged against its share alone */
		uint64_t start_kb;   /* a disk's use as the run began */
		uint64_t base_kb;    /* its use less the run's, at the last look */
	} place[SL_STORED_MAX];
	struct timespec since;   /* the run's entries changed after (real time) */
	uid_t uid;               /* the program's */
	int n_watched;           /* directories of the run's watched (SL_STORED_WATCHES) */
	/* the system's /tmp or /var/tmp opened with --rw, swept of the run's
	 * uid's entries as it ends */
	struct sl_stored_shared { int fd; struct timespec mtime; const char *path; } shared[2];
	int n_shared;
	bool own_uid;            /* no other run has it (--uid-pool): its entries are the run's */
};

struct sl_run {
	const struct sandlock_policy *p;
	char *const *argv;
	uint64_t floor_kb;      /* our own peak when the program started */

	/* process */
	pid_t supervisor_pid;
	int supervisor_pidfd;    /* in a pid namespace, where getppid() says 0:
				    readable once the supervisor is gone; -1 */
	bool in_pidns;
	bool use_pdeathsig;      /* else the watchdog covers the supervisor's death */
	bool nnp_optional;       /* best effort: go on if no-new-privs is refused */
	volatile int nnp_ok;
	enum sl_fd_mode fd_mode;
	volatile pid_t pgid;     /* the run's process group: written by the child,
				    or by clone() in a pid namespace */
	struct sl_lifeline {
		pid_t pid;           /* the watchdog, 0: none */
		int wfd;             /* its pipe: EOF means the supervisor is gone */
		int rfd;
		volatile int done;   /* the supervisor ended the run itself */
		void *stack;
	} lifeline;
	struct sl_cgroup cg;     /* the run's own cgroup, if cg.joined */

	/* resources */
	struct { int resource; struct rlimit lim; } rl[8];
	int n_rl;
	struct rlimit nofile; bool set_nofile;
	struct rlimit nproc; bool set_nproc;
	bool own_userns;         /* a user namespace of its own for counting */
	volatile int own_userns_ok;
	long nproc_have;        /* tasks of the uid at start, -1 unknown */
	/* --nproc where no user namespace of the run's own counts: the
	 * supervisor counts each new task (1), or the last resort, the
	 * uid's shared RLIMIT_NPROC (2); set by the child */
	volatile int count_tasks;
	bool userns_expected;    /* the probe says a user namespace can be made */
#define SL_TASKS_LISTENER 1
#define SL_TASKS_SHARED 2

	/* identity */
	char **envp;
	const char *exec_paths[SL_MAX_EXEC_PATHS];
	int n_exec_paths;
	volatile int exec_index;  /* the one the child tried last (set by it) */
	const char *workdir;
	bool drop_privs;
	uid_t uid; gid_t gid;
	int uid_lock;            /* --uid-pool: the lock held on our uid, -1 */
	const char *pool_missed; /* the default pool could not give one: why */
	struct timespec shm_since; /* when the uid was claimed (coarse real time) */
	bool shm_clean;          /* nothing of the run is left in /dev/shm (shm.c) */
	int stdio[3];            /* descriptors to become 0, 1, 2 (-1: keep) */
	struct sl_relay relay[3]; /* the supervisor's copies of 0, 1, 2 */
	struct sl_outfile out[3]; /* --stdout, --stderr FILE (1, 2) */

	/* namespaces (filled by namespaces.c) */
	int clone_ns_flags;
	unsigned ns_dropped;     /* layers given up because the host refused them */
	int ns_errno;
	char uid_map[64], gid_map[64];
	bool parent_maps;        /* written by the supervisor (root in a container) */
	int maps_state;          /* futex: 0 waiting, 1 written, -1 failed */
	bool mount_proc, mount_tmp;
	bool disk_dropped;       /* --disk given, no mount namespace (best effort) */
	char *tmp_dir;           /* isolate_tmp directory */
	bool home_in_tmp;        /* HOME and TMPDIR: the run's own /tmp (namespaces.c) */
	char *tmp_parent;        /* its unlistable parent (as root), ours alone */
	bool tmp_recycle;        /* park it for a later run (see scratch.c) */
	long long tmp_gen;       /* its inode generation when the run began */
	int tmp_lock;            /* its entry in the registry, locked; -1 */
	char *tmp_entry;         /* that entry's path */
	const char *cwd;         /* the supervisor's working directory */
	const char *keep[SL_MAX_KEEP]; /* paths under /tmp bound back */
	int n_keep;
	char keep_dirs[4][4096]; /* directories of files the program is to make */
	int n_keep_dirs;

	/* a guard inside the program (guard.c) */
	char **guard_argv;       /* the command as the guard runs it; NULL */
	bool guard_argv_owned;   /* its words are its own (else the caller's) */
	int preload_fd;          /* the preload library's memfd, the program's
				    fd 3; -1: none */

	/* the WebAssembly backend (wasm_backend.c) */
	char **wasm_argv;        /* the command as our WASI host runs it; NULL */
	size_t wasm_argc;        /* its words (some NULL on a failed copy) */
	char *wasm_paths[2];     /* its executable's directory and the standard
				    library, real paths: read-only for Landlock */

	/* Landlock */
	int landlock_fd;         /* -1: none */
	struct sl_stored stored; /* the rules' places on a host's tmpfs or disk (stored.c) */
	bool hide_scratch;       /* isolate-tmp without a fresh /tmp (see landlock.c) */
	bool proc_self;          /* the child allows its own /proc/<pid> */
	bool workdir_dropped;    /* the default allow-list left the workdir out */
	/* where there is no Landlock: the allow-list as a root of bind
	 * mounts (bind_root.c), noted by landlock.c, made by the child */
	bool fs_by_mounts;
	struct sl_mount_op {
		char *path;          /* canonical, or as the child sees it */
		char *target;        /* a symbolic link to make there; NULL: a bind */
		bool rw, must_exist;
		bool as_is;          /* a bind of the policy's, as it is */
		int cover;           /* the closest bind above it; -1 */
	} *mops;
	int n_mops, cap_mops;
	int path_fds[48];        /* the ruleset's paths, closed once the child runs */
	int n_path_fds;
	struct sl_proc_rule {    /* rules under /proc: added by the child, whose */
		const char *path;    /* /proc may be a new one (pid namespace) */
		uint64_t access;
		bool must_exist;
	} proc_rules[24 + SL_MAX_TMPFS];
	int n_proc_rules;

	/* seccomp */
	bool use_seccomp;
	uint32_t violation_action;
	uint32_t probe_action;   /* for large allocations */
	uint32_t exec_action;    /* for an exec that is not ours (seccomp.c) */
	uint32_t link_action;    /* for link/linkat (seccomp.c) */
	uint32_t xfsz_action;    /* exit, exit_group, rt_sigtimedwait */
	bool filter_on;          /* the child has installed it (spawn.c) */
	uint64_t start_ticks;    /* when the run's first process started (supervisor.c) */
	bool exec_watched;       /* such an exec comes to the supervisor */
	uint64_t big_alloc;
	bool want_listener;
	const struct sock_filter *filter;
	size_t filter_len;
	struct sock_filter *filter_copy; /* patched in the child */

	/* written by the child, read by the supervisor after exec */
	volatile int fail_step;
	volatile int fail_errno;
	volatile int listener_fd;
	/* the run's tmpfs, opened by the child into our table once mounted
	 * (-1: none): what it holds counts, however short the run */
	volatile int tmpfs_fd;
	volatile int exec_errno;
	int setup_done;          /* futex: exec called or failed (pid ns) */
	int ns_status;           /* the program's wait status, from our init */
	int ns_status_valid;
	void *stack;             /* the children's stacks, while the init runs */
	struct timespec exec_time;
	struct timespec end_time;
};

/* landlock.c: the paths --landlock allows without --ro/--rw */
extern const char *const sl_landlock_default_ro[], *const sl_landlock_default_rw[];
/* elf.c: 1 if path is an ELF file with an interpreter (dynamically
 * linked), 0 if an ELF file without, -1 if not an ELF file we can read */
int sl_elf_dynamic(const char *path);
/* environ.c: set NAME=value in a vector made by sl_environ_build */
int sl_environ_set(char ***envp, const char *name, const char *value);
void sl_environ_unset(char **envp, const char *name);

/* policy.c */
const char *sl_guard_label(unsigned layer_bit);
/* The signals that stop a run from outside (SIGTERM, SIGINT, SIGHUP,
 * SIGQUIT): taken through a signalfd, the tree killed, then 128+sig. */
void sl_stop_signals(sigset_t *set);
void sl_seterr(struct sandlock_result *r, const char *fmt, ...)
	       __attribute__((format(printf, 2, 3)));

/* features.c: what a run needs (seccomp, Landlock, pdeathsig), or with
 * full everything --features shows (user namespaces cost a clone) */
void sl_probe_features(struct sandlock_features *f, bool full);

/* features.c */
bool sl_cap_effective(int cap);

/* shm.c: a shared /dev/shm where the run has a uid of its own */
#define SL_SHM_SHARE 4          /* a run holds at most 1/4 of it */
#define SL_SHM_LOOK_US 1000     /* the watch is read at most once per 1 ms */
bool sl_shm_shared(const struct sl_run *run);
int sl_shm_open_dir(void);
uint64_t sl_shm_share_kb(int dir);
/* what uid's entries of dir take, in kB (a page at least each); with
 * remove, they go; *clean (if given): all of them went, or none was there;
 * *all_kb (if given): what every entry takes */
uint64_t sl_shm_sweep(int dir, uid_t uid, bool remove, bool *clean, uint64_t *all_kb);
/* remove name (of dir) with all it holds, as its owner uid where root may
 * not (the sticky bit holds a root without CAP_FOWNER) */
bool sl_remove_entry(int dir, const char *name, const struct stat *st, uid_t uid);
/* what the processes pids hold of the tmpfs dev that is no longer named */
uint64_t sl_shm_unlinked_kb(dev_t dev, uid_t uid, const pid_t *pids, size_t n, bool *hidden);
/* the same, read as whoever this thread is now; *refused: some of it was
 * not ours to read */
uint64_t sl_unlinked_kb(dev_t dev, const pid_t *pids, size_t n, bool *hidden, bool *refused);
/* what a file of the run's there is charged (see there), in kB */
uint64_t sl_shm_held_kb(const struct stat *st);
/* a watch on /dev/shm's files being made and growing, added to the
 * inotify instance in: its descriptor, or -1 */
int sl_shm_watch(int in);
/* an event of that watch may be uid's (dir: /dev/shm) */
struct inotify_event;
bool sl_shm_event_mine(int dir, const struct inotify_event *e, uid_t uid);

/* stored.c: the places on a host's file system that the run may write */
void sl_stored_reset(struct sl_stored *s);
/* path (fd, or -1: opened here) is writable by the run: kept if it is a
 * directory on a file system that stores (a tmpfs, a disk) */
void sl_stored_note(struct sl_stored *s, int fd, const char *path);
/* what a file system's blocks hold, in KiB */
struct statfs;
uint64_t sl_fs_used_kb(const struct statfs *st);
/* what the run stores in the places on dev; *hidden: some of it is
 * closed to the walk (made as the program's uid) */
uint64_t sl_stored_walk(struct sl_stored *s, dev_t dev, int watch, bool *hidden);
/* path was opened with --rw: if it is the system's /tmp or /var/tmp, it is
 * swept of the run's entries as it ends (the run has a uid of its own) */
void sl_stored_note_shared(struct sl_stored *s, const char *path);
/* remove uid's entries of those directories where anything was made since
 * they were noted, but for what the command line argv names */
void sl_stored_sweep(struct sl_stored *s, uid_t uid, char *const *argv);
/* watches on the places' entries being made and growing, added to in
 * (and by the walk, given in: on the directories the run made there) */
void sl_stored_watch(struct sl_stored *s, int in);

/* accounting.c: a process's /proc/PID/stat, the fields we read */
struct sl_pstat {
	char state;              /* R S D Z X ... */
	unsigned long flags;     /* PF_* (PF_EXITING 0x4) */
	pid_t ppid, session;
	long threads;
	uint64_t own_ticks, child_ticks;
	uint64_t faults;         /* minor and major, every thread's */
	uint64_t rss;            /* resident pages, of every kind */
	uint64_t start;          /* ticks after boot: with the pid, a process */
	uint64_t pending;        /* signals 1-31 pending for the first thread */
};
bool sl_proc_stat(pid_t pid, struct sl_pstat *s);

/* uidpool.c */
int sl_uidpool_claim(struct sl_run *run, struct sandlock_result *res);
void sl_uidpool_release(struct sl_run *run);

/* lifeline.c: the watchdog (see there) */
int sl_lifeline_start(struct sl_run *run);
void sl_lifeline_release(struct sl_run *run); /* the run's processes are gone */
void sl_lifeline_stop(struct sl_run *run);     /* and reap it */

/* A system call that never touches errno: for code that runs on a stack
 * of its own in the supervisor's memory (CLONE_VM) at the same time as the
 * supervisor, where errno would be the supervisor's thread's. */
static inline long sl_raw(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long r = syscall(nr, a, b, c, d);
	return r;
#endif
}

/* A small file (under /proc) into buf, NUL-terminated: its length, or -1.
 * Safe in the child (no allocation). */
SL_CHILD static inline ssize_t sl_read_small(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* Write all of s to dirfd/path, one write (proc and cgroup files). */
SL_CHILD static inline int sl_write_file(int dirfd, const char *path, const char *s)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* elf.c */
bool sl_elf_sizes(const char *path, uint64_t *writable_kb, uint64_t *total_kb);

/* rlimits.c */
void sl_rlimits_prepare(struct sl_run *run);
uint64_t sl_as_limit(uint64_t mem_mb);
int sl_rlimits_apply(const struct sl_run *run); /* child */
int sl_rlimits_apply_nproc(struct sl_run *run); /* child */
void sl_rlimits_count_nproc(struct sl_run *run, bool early); /* child, before Landlock */

/* accounting.c: the whole run's CPU and memory (see there) */
struct sl_acct_walk;
struct sl_acct {
	pid_t session;           /* the run's session: its first process */
	uint64_t cpu_limit_us, mem_limit_kb; /* 0: none */
	long hz, ncpu;
	bool children_lists;     /* /proc/PID/task/TID/children (else scan /proc) */
	bool in_pidns;
	bool active, probed;
	bool over_cpu, over_mem;
	bool fsize_limit, over_fsize; /* a blocked SIGXFSZ seen pending */
	uint64_t cpu_us;         /* the highest total seen */
	uint64_t peak_kb;        /* the most held at once */
	uint64_t samples;
	uint64_t self_start_us, next_us, step_us;
	struct sl_acct_walk *walk;
	const char *tmpfs_dir;   /* the run's own tmpfs under its root, or NULL */
	struct sl_cgroup *cg;    /* the run's cgroup, NULL: none */
	bool cg_alone;           /* the program cannot leave it: no walks */
	bool need_walk;          /* /proc must still be read */
	pid_t tmpfs_pid;         /* whose root showed it last */
	int tmpfs_fd;            /* the run's tmpfs, held once seen: -1 not yet */
	dev_t host_tmpfs_dev;    /* what our own path shows: not the run's */
	uint64_t charged_us;     /* the supervisor's CPU spent for the run */
	int shm_dir;             /* a shared /dev/shm the run may write (shm.c), -1 */
	uid_t shm_uid;           /* the run's own uid there */
	uint64_t shm_share_kb;   /* the most it may hold there */
	struct timespec shm_since;
	bool shm_clean;          /* swept at the end: nothing of the run is left */
	uint64_t shm_kb;         /* what it held there when last walked */
	dev_t shm_dev;
	bool shm_near;           /* all of it holds half the run's share or more */
	int watch;               /* inotify: files of the run's made and growing in a
				    shared /dev/shm (shm_wd) or a stored place, -1 */
	int shm_wd;
	uint64_t shm_next_us;    /* the watch is not polled before (CLOCK_MONOTONIC) */
	struct sl_stored *stored; /* places on a host's tmpfs or disk (stored.c), NULL */
	uint64_t stored_kb;      /* what the run held in them when last looked at */
	bool stored_near;        /* one of them is half way to the run's share */
	bool over_disk;          /* the run stored more than its share of a disk */
	bool as_run;             /* its /proc files may be read as run_uid (privileges.c) */
	bool read_as_run;        /* smaps_rollup was, last time */
	uid_t run_uid;
	gid_t run_gid;
};
void sl_acct_start(struct sl_acct *a, const struct sandlock_policy *p, pid_t session,
		   bool in_pidns, bool private_tmpfs, struct sl_cgroup *cg, bool cg_alone);
/* The program runs as uid:gid, not as us: its /proc files are read so */
void sl_acct_as(struct sl_acct *a, uid_t uid, gid_t gid);
int sl_acct_timeout_ms(const struct sl_acct *a); /* until the next sample, -1 none */
bool sl_acct_sample(struct sl_acct *a, bool force); /* true: a limit is passed */
void sl_acct_finish(struct sl_acct *a, struct sandlock_result *res);
/* The run's tmpfs, held from its mount on (the accounting closes it) */
void sl_acct_tmpfs(struct sl_acct *a, int fd);
/* A shared /dev/shm the run may write as uid, held from now on (see shm.c) */
void sl_acct_shm(struct sl_acct *a, int dir, uid_t uid, const struct timespec *since);
/* The places on a host's tmpfs or disk the run may write, held from now on (see
 * stored.c); s outlives the accounting */
void sl_acct_stored(struct sl_acct *a, struct sl_stored *s);
/* The watch on a shared /dev/shm and the stored places to poll now (-1:
 * none), and what to do when it is readable: true if the run passed its
 * share or --mem */
int sl_acct_watch_fd(const struct sl_acct *a);
bool sl_acct_watch_event(struct sl_acct *a);
/* CPU the supervisor spent on the run's requests, counted as the run's */
void sl_acct_charge(struct sl_acct *a, uint64_t total_us);
/* The run's live tasks, from the run itself; -1: no children lists */
long sl_run_tasks(pid_t session, bool in_pidns);
/* reap.c: fn(ctx, child) for every child of every thread of pid, from
 * /proc/PID/task/TID/children (threads: the thread count where known, 1
 * reads only the main thread's list; 0: unknown) */
typedef void (*sl_child_fn)(void *ctx, pid_t child);
void sl_each_child(pid_t pid, long threads, sl_child_fn fn, void *ctx);
/* pidset.c: the pids a walk found, in order, each once, with a number kept
 * for each (aux); grows with the run (zeroed: empty) */
struct sl_pidset {
	pid_t *v;
	long *aux;
	size_t n, cap;
	uint32_t *slot;  /* open addressing, nslot a power of two: an index
			  * into v plus one, 0: free */
	size_t nslot;
};
bool sl_pidset_has(const struct sl_pidset *s, pid_t pid);
/* where pid is in v, or -1 */
long sl_pidset_index(const struct sl_pidset *s, pid_t pid);
/* 1: added, 0: there already (or not a pid), -1: out of memory */
int sl_pidset_add(struct sl_pidset *s, pid_t pid, long aux);
void sl_pidset_clear(struct sl_pidset *s);
void sl_pidset_free(struct sl_pidset *s);

/* options.c: the policy options of sandlock(1) by name */
struct sl_policy_option {
	const char *name;
	bool value;      /* takes a value */
	bool in_profile; /* may be set by a profile */
};
extern const struct sl_policy_option sl_policy_options[];
extern const char *const sl_policy_aliases[][2]; /* { alias, option }, NULL-ended */
const struct sl_policy_option *sl_policy_option(const char *name);
int sl_parse_u64(const char *s, uint64_t max, uint64_t *out);
int sl_parse_seconds_ms(const char *s, uint64_t *ms);

/* environ.c */
char **sl_environ_build(const struct sandlock_policy *p, const char *tmpdir,
			const char *workdir_tmp);
/* --runtime wasm's guest: PATH, HOME, LANG, --keep-env's, --env's */
char **sl_environ_wasm(const struct sandlock_policy *p);
void sl_environ_free(char **envp);
int sl_exec_paths_prepare(struct sl_run *run, char **storage);

/* privileges.c */
int sl_privileges_drop(const struct sl_run *run); /* child */
/* this thread reads the run's /proc/PID files as uid, until sl_as_self */
struct sl_as {
	bool root;
	int fsuid, fsgid;
};
void sl_as_run(uid_t uid, gid_t gid, struct sl_as *s);
void sl_as_self(const struct sl_as *s);

/* seccomp.c */
int sl_seccomp_prepare(struct sl_run *run, const struct sandlock_features *f,
		       struct sandlock_result *res);
int sl_seccomp_install(struct sl_run *run); /* child */
void sl_seccomp_listener_ready(int listener);
/* Handle one notification; returns 1 if a violation was recorded. */
struct sl_notify_state {
	bool mem_refused;        /* the kernel or we refused an allocation */
	struct sl_run *run;      /* for the watchdog an exec may need */
	uint64_t charged_us;     /* our CPU spent on its memory requests */
	bool xfsz;               /* SIGXFSZ seen pending at an end or a wait */
	long tasks;              /* the run's tasks, an upper bound (--nproc) */
};
int sl_seccomp_handle(int listener, struct sandlock_result *res,
		      const struct sandlock_policy *p, struct sl_notify_state *ns);
const char *sl_syscall_name(uint32_t arch, int nr, char *buf, size_t len);

/* landlock.c */
int sl_landlock_prepare(struct sl_run *run, const struct sandlock_features *f,
			struct sandlock_result *res);
void sl_landlock_close_paths(struct sl_run *run);
int sl_landlock_apply(const struct sl_run *run); /* child */

/* namespaces.c */
int sl_namespaces_prepare(struct sl_run *run, const struct sandlock_features *f,
			  struct sandlock_result *res);
int sl_namespaces_apply(const struct sl_run *run, volatile int *tmpfs_fd); /* child */
int sl_hostname_apply(const struct sl_run *run); /* child */
void sl_userns_own_count(struct sl_run *run); /* child */
void sl_namespaces_parent_maps(struct sl_run *run, pid_t pid);
enum sandlock_unshare sl_unshare_mode(const struct sandlock_policy *p,
				      const struct sandlock_features *f);
void sl_namespaces_disable(struct sl_run *run, struct sandlock_result *res);
void sl_namespaces_keep_paths(struct sl_run *run);
bool sl_namespaces_home_in_tmp(const struct sl_run *run, const struct sandlock_features *f);
SL_CHILD int sl_remount_ro(const char *path);
SL_CHILD int sl_make_parents(char *path, size_t from);
/* path is dir or lies under it (dir's trailing slashes ignored) */
SL_CHILD bool sl_path_under(const char *path, const char *dir);
/* a path where the policy's tmpfs list may mount (policy.c) */
bool sl_tmpfs_dst_ok(const char *dst);
SL_CHILD int sl_mount_point(char *path, size_t from, bool dir);

/* bind_root.c: the allow-list as a root of bind mounts (no Landlock) */
int sl_bind_root_note(struct sl_run *run, const char *path, bool rw, bool must_exist,
		      bool child_view);
int sl_bind_root_note_bind(struct sl_run *run, const char *dst);
int sl_bind_root_finish(struct sl_run *run);
void sl_bind_root_release(struct sl_run *run);
SL_CHILD int sl_bind_root_enter(const struct sl_run *run, bool have_tmp);

/* scratch.c */
bool sl_landlock_workdir_tmp(const struct sl_run *run, const struct sandlock_features *f,
			     char *real);
int sl_scratch_create(struct sl_run *run, const struct sandlock_features *f,
		      struct sandlock_result *res);
void sl_scratch_remove(struct sl_run *run);
/* the contents of the directory open at dfd, any depth, any modes; closes
 * dfd; true when all is gone (also batch.c's working directory) */
bool sl_remove_tree(int dfd);

/* spawn.c */
pid_t sl_spawn(struct sl_run *run, int *pidfd);
void sl_spawn_release(struct sl_run *run);

/* time helpers */
static inline uint64_t sl_ts_us(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000u + (uint64_t)t->tv_nsec / 1000u;
}
/* reap.c: the end of a run */
void sl_add_rusage(struct sandlock_result *r, const struct rusage *ru);
/* when pid started, in clock ticks since boot (0: unknown) */
uint64_t sl_start_ticks(pid_t pid);
/* kill the run's group and every descendant found from the run itself */
void sl_kill_tree(struct sl_run *run, pid_t pgid, struct sandlock_result *res);

/* verdict.c */
/* How the run ended, as the supervisor saw it. */
struct sl_ending {
	bool violated, timed_out, over_output, cancelled;
	bool over_cpu, over_mem;  /* the whole run passed --cpu / --mem */
	bool over_fsize;          /* a write past --fsize, SIGXFSZ blocked */
	bool over_disk;           /* past its share of a disk it shares */
	bool mem_refused;         /* a large allocation was refused */
	bool wasm_mem;            /* the WASI host refused the guest memory */
	bool exec_too_big;        /* killed in execve: static data past --mem */
	bool kernel_kills_violations;
	uint64_t floor_kb;        /* our own peak before exec */
#define SL_FLOOR_SLACK_KB 256
};
/* the verdict from the wait status st and what was seen */
void sl_judge(const struct sandlock_policy *p, struct sandlock_result *r, int st,
	      const struct sl_ending *e);

/* required.c: the layers a run had, must have and went without */
/* What the run went without, each with why: written out at the end as
 * one line, names that share a reason together ("a, b (why), c (other)"),
 * so that a host lacking most layers still fits in the report's field. */
#define SL_MISSING_MAX (SANDLOCK_LAYER_COUNT + 6)

struct sl_missing {
	const char *name[SL_MISSING_MAX];
	char why[SL_MISSING_MAX][96];
	int n;
};
void sl_missing_add(struct sl_missing *m, const char *name, const char *why);
void sl_missing_write(const struct sl_missing *m, char *line, size_t size);
void sl_note_missing(struct sl_missing *m, const struct sandlock_features *f,
		     unsigned active, unsigned dropped, int dropped_errno);
/* the layers in place when the run failed at step */
unsigned sl_layers_set_up(unsigned layers, enum sl_step step);
/* one line in res->error: the first layer of missing, and why this host
 * lacks it; or, with unasked, that --require named one not asked for */
void sl_explain_missing(const struct sandlock_policy *p, unsigned missing,
			const char *what, bool unasked, struct sandlock_result *res);
/* SANDLOCK_ENOSYS, with the reason, unless every --require layer is active */
int sl_check_required(const struct sandlock_policy *p, unsigned active,
		      struct sandlock_result *res);

#endif
