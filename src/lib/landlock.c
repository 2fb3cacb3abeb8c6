/*
 * Landlock: filesystem allow-lists, TCP denial, and scoping of signals and
 * abstract unix sockets to the sandbox.  The ruleset is built by the
 * supervisor before the child exists; the child adds its own /proc/<pid>
 * (which only it can name) and enforces it.
 *
 * The best ABI the kernel offers is negotiated, and every access right that
 * ABI knows is handled, so nothing is left allowed by default.  Scoping
 * (ABI 6) is applied to every run where the kernel has it, even without
 * --landlock: it costs nothing and confines signals in the kernel.
 */
#include "internal.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
/* Newer than Debian 12's headers. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define SL_LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define SL_LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define SL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SL_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

/* The ABI 6 layout; older kernels get a prefix of it. */
struct sl_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

#define FS_ABI1 ((1ULL << 13) - 1)
#define FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
		 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
		 LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FS_RO (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
	       LANDLOCK_ACCESS_FS_READ_DIR)

static uint64_t fs_rights(int abi)
{
	uint64_t r = FS_ABI1;
	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

/* Default paths of --landlock without --ro/--rw: what Python, a compiled C
 * program and Node.js need to start; missing ones are skipped.  Landlock
 * checks where a path ends, not the symbolic links on the way, so link
 * farms such as /etc/alternatives need no rule of their own. */
const char *const sl_landlock_default_ro[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.cache", "/etc/localtime", "/etc/ssl", "/etc/python3",
	"/etc/python3.11", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group",
	/* the JDK's configuration (java.security), by the LTS releases */
	"/etc/java-17-openjdk", "/etc/java-21-openjdk", "/etc/java-11-openjdk",
	"/opt", "/dev/urandom", "/dev/random", "/proc/cpuinfo",
	"/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu", "/proc/sys/vm/overcommit_memory",
	NULL,
};
/* writing to these stores nothing: /dev/zero is mapped shared for
 * memory, /dev/full is how a program tests its write errors */
const char *const sl_landlock_default_rw[] = { "/dev/null", "/dev/zero", "/dev/full", NULL };

/* Does the directory real (canonical) hold the system's directories (a
 * container's default working directory is /)?  Or, with shared, is it
 * one of the places every run may write, or holds one?  Such a directory
 * would open the whole machine, or every other run's files. */
static bool holds_one(const char *real, const char *const *dirs)
{
	size_t len = strlen(real);
	for (const char *const *d = dirs; *d; d++)
		if (!strncmp(*d, real, len) && ((*d)[len] == 0 || (*d)[len] == '/'))
			return true;
	return false;
}

static bool holds_system(const char *real, bool shared)
{
	static const char *const sys_dirs[] = {
		"/", "/usr", "/etc", "/bin", "/lib", "/proc", "/sys", "/dev", NULL,
	};
	static const char *const shared_dirs[] = { "/tmp", "/var/tmp", "/dev/shm", "/run", NULL };
	return holds_one(real, sys_dirs) || (shared && holds_one(real, shared_dirs));
}

/*
 * The seed command line (--clean-env, no namespaces) under the default
 * allow-list: a run's working directory is its own and no other run may
 * reach it, so its temporary files go there (TMPDIR) and HOME names a
 * place outside every rule, which no run can read or write.  That saves
 * making and removing a private directory per run (a journalled mkdir,
 * chown, rmdir and the registry's entry on the host's /tmp: most of the
 * layer's start-up cost).  Only where the program may write that
 * directory (its uid's permission bits), else the private directory it
 * is.  real (PATH_MAX bytes) receives the directory.
 */
bool sl_landlock_workdir_tmp(const struct sl_run *run, const struct sandlock_features *f,
			     char *real)
{
	const struct sandlock_policy *p = run->p;
	if (!p->clean_env || p->isolate_tmp || p->no_landlock || p->landlock || p->strict ||
	    p->disk_mb || f->landlock_abi < 1 || sl_unshare_mode(p, f) != SANDLOCK_UNSHARE_OFF)
		return false;
	struct stat st;
	if (!realpath(p->workdir ? p->workdir : ".", real) || holds_system(real, true) ||
	    stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	if (!run->drop_privs)
		return access(real, W_OK) == 0;
	return st.st_uid == run->uid ? (st.st_mode & S_IWUSR) != 0
	       : st.st_gid == run->gid ? (st.st_mode & S_IWGRP) != 0
	       : (st.st_mode & S_IWOTH) != 0;
}

/* Rights that only make sense on a directory are refused (EINVAL) on
 * anything else: then the file's share of them.  Cheaper than asking what
 * the path is first, and most of these paths are directories. */
SL_CHILD static int add_rule(int ruleset, int fd, uint64_t access)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access, .parent_fd = fd };
	int r = 0;
	if (pb.allowed_access)
		r = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	if (r != 0 && errno == EINVAL && (pb.allowed_access & ~FS_FILE)) {
		pb.allowed_access &= FS_FILE;
		r = pb.allowed_access ? (int)syscall(SYS_landlock_add_rule, ruleset,
						     LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
				      : 0;
	}
	return r;
}

/* Closing a descriptor costs about a microsecond: the supervisor closes
 * the paths' descriptors after the child is running, off its start-up. */
static void keep_fd(struct sl_run *run, int fd)
{
	int e = errno;
	if (run->n_path_fds < (int)(sizeof(run->path_fds) / sizeof(run->path_fds[0])))
		run->path_fds[run->n_path_fds++] = fd;
	else
		close(fd);
	errno = e;
}

void sl_landlock_close_paths(struct sl_run *run)
{
	while (run->n_path_fds > 0)
		close(run->path_fds[--run->n_path_fds]);
	sl_bind_root_release(run);
}

/* A /proc of its own (pid namespace) has other inodes than ours: rules for
 * paths under /proc are made by the child, from the /proc it sees. */
static bool under_proc(const char *path)
{
	return !strncmp(path, "/proc", 5) && (path[5] == '/' || path[5] == 0);
}

/* A rule that gives more than reading and running what it holds. */
static bool writes(uint64_t rights)
{
	return (rights & ~(FS_RO | LANDLOCK_ACCESS_FS_IOCTL_DEV)) != 0;
}

/* A place the child mounts for itself: its /proc, its own /tmp and
 * /dev/shm, the policy's tmpfs directories; a rule for one (nsjail's
 * --tmpfsmount) is made there, in the child's view. */
static bool childs_own(const struct sl_run *run, const char *path)
{
	if (under_proc(path))
		return true;
	if (!run->mount_tmp)
		return false;
	if (!strcmp(path, "/tmp") || !strcmp(path, "/dev/shm"))
		return true;
	for (size_t i = 0; i < run->p->tmpfs.n; i++)
		if (!strcmp(path, run->p->tmpfs.v[i]))
			return true;
	return false;
}

static int add_path(struct sl_run *run, int ruleset, const char *path, uint64_t rights,
		    uint64_t handled, bool must_exist)
{
	bool own = childs_own(run, path);
	/* no Landlock here: a bind in the run's own root (bind_root.c) */
	if (run->fs_by_mounts) {
		if (writes(rights & handled) && !own)
			sl_stored_note(&run->stored, -1, path);
		return sl_bind_root_note(run, path, writes(rights & handled), must_exist, own);
	}
	if (own) {
		if (must_exist && access(path, F_OK) != 0)
			return -1;
		if (run->n_proc_rules == (int)(sizeof(run->proc_rules) / sizeof(run->proc_rules[0]))) {
			errno = E2BIG;
			return -1;
		}
		run->proc_rules[run->n_proc_rules++] =
			(struct sl_proc_rule){ path, rights & handled, must_exist };
		return 0;
	}
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return must_exist ? -1 : 0;
	int r = add_rule(ruleset, fd, rights & handled);
	if (writes(rights & handled))
		sl_stored_note(&run->stored, fd, path); /* a host's tmpfs: counted */
	keep_fd(run, fd);
	return r;
}

/* A rule the child makes from what it sees: its own /tmp and /dev/shm
 * (a mount namespace's) have other inodes than ours. */
static int add_child_rule(struct sl_run *run, const char *path, uint64_t rights)
{
	if (run->fs_by_mounts)
		return sl_bind_root_note(run, path, writes(rights), false, true);
	if (run->n_proc_rules == (int)(sizeof(run->proc_rules) / sizeof(run->proc_rules[0]))) {
		errno = E2BIG;
		return -1;
	}
	run->proc_rules[run->n_proc_rules++] = (struct sl_proc_rule){ path, rights, false };
	return 0;
}

/* What the default allow-list gives a run besides the system's files:
 * what the caller named in its command line (the submission, a grader's
 * request and response files, a directory to work in), but never a
 * directory holding the system's; and where the run has a mount namespace,
 * its private /tmp, /dev/shm and /var/tmp, and its own /proc. */
static int allow_own(struct sl_run *run, int ruleset, uint64_t h)
{
	static const char *const system_files[] = { "/usr/", "/bin/", "/sbin/", "/lib", NULL };
	for (char *const *a = run->argv; *a; a++) {
		/* a path, or an option's value that is one (of=/out/f,
		 * --output=/out/f) */
		const char *path = *a, *eq = strchr(*a, '=');
		if (path[0] != '/' && eq && eq[1] == '/')
			path = eq + 1;
		char real[4096], parent[4096];
		bool system = false;
		/* the interpreter by its path (/usr/bin/python3): the defaults
		 * give it, and resolving it costs a system call a component */
		for (const char *const *f = system_files; *f && !system; f++)
			system = !strncmp(path, *f, strlen(*f));
		if (path[0] != '/' || system)
			continue;
		if (!realpath(path, real)) {
			/* a file the program is to make (a response, an output):
			 * the directory it goes in, if that is no shared place */
			const char *slash = strrchr(path, '/');
			size_t len = (size_t)(slash - path);
			if (errno != ENOENT || len == 0 || len >= sizeof(parent))
				continue;
			memcpy(parent, path, len);
			parent[len] = 0;
			if (!realpath(parent, real))
				continue;
		}
		if (holds_system(real, true) || !strncmp(real, "/usr/", 5) ||
		    !strncmp(real, "/proc/", 6) || !strncmp(real, "/sys/", 5) ||
		    !strncmp(real, "/dev/", 5))
			continue;
		int r = add_path(run, ruleset, real, h, h, false);
		if (r)
			return r;
	}
	/* a shared /dev/shm where the run has a uid of its own (shm.c): it
	 * may make files there, use and remove them (the kernel keeps its
	 * neighbours' out: other uids, 0600, a sticky directory), not list
	 * the directory, make anything else there or run what it holds */
	if (sl_shm_shared(run)) {
		uint64_t shm = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_READ_FILE |
			       LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
			       LANDLOCK_ACCESS_FS_REMOVE_FILE;
		int r = add_path(run, ruleset, "/dev/shm", shm & h, h, false);
		if (r)
			return r;
	}
	if (run->mount_tmp) {
		static const char *const own[] = { "/tmp", "/dev/shm", "/var/tmp" };
		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
			if (add_child_rule(run, own[i], h) != 0)
				return -1;
	}
	/* a /proc of the run's own (pid namespace) shows its processes only;
	 * without one, the child allows its own /proc/<pid> (see
	 * sl_landlock_apply), and nothing of its neighbours' */
	if (run->mount_proc && run->in_pidns)
		return add_child_rule(run, "/proc", FS_RO & h);
	run->proc_self = true;
	return 0;
}

/* The defaults that are files get a file's rights at once: asked for a
 * directory's, the kernel refuses (EINVAL) and add_rule asks again, two
 * system calls per file in every run. */
static uint64_t default_rights(const char *path, uint64_t rights)
{
	static const char *const files[] = {
		"/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf", "/etc/passwd",
		"/etc/group", NULL,
	};
	bool file = !strncmp(path, "/dev/", 5) ||
		    (!strncmp(path, "/proc/", 6) && strncmp(path, "/proc/sys/", 10) &&
		     strncmp(path, "/proc/self", 10)) ||
		    !strcmp(path, "/proc/sys/vm/overcommit_memory");
	for (const char *const *f = files; *f && !file; f++)
		file = !strcmp(path, *f);
	return file ? rights & FS_FILE : rights;
}

/* A top-level directory that is missing, or a link into /usr (merged /usr:
 * /bin -> usr/bin), needs no rule next to the one for /usr: a rule costs
 * an open, an add_rule and a close in every run. */
static bool under_usr(const char *path)
{
	if (strchr(path + 1, '/'))
		return false;
	char buf[256];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return errno == ENOENT;
	buf[n] = 0;
	return (!strncmp(buf, "usr/", 4) || !strncmp(buf, "/usr/", 5)) && !strstr(buf, "..");
}

/* Is path (length len) hidden, or a directory on the way to a hidden one? */
static bool hidden_entry(const char *path, const char *const *hidden, bool terminals)
{
	for (const char *const *h = hidden; *h; h++)
		if (!strcmp(path, *h))
			return true;
	const char *n = path + 5;
	return terminals && !strncmp(path, "/dev/", 5) &&
	       (!strcmp(n, "pts") || !strncmp(n, "tty", 3) || !strncmp(n, "vcs", 3) ||
		!strcmp(n, "console"));
}

static bool on_the_way(const char *path, const char *const *hidden, bool terminals)
{
	size_t len = strlen(path);
	for (const char *const *h = hidden; *h; h++)
		if (!strncmp(*h, path, len) && (*h)[len] == '/' && len > 0)
			return true;
	return terminals && !strcmp(path, "/dev");
}

/*
 * Every path with every right but the hidden ones: each directory on the
 * way to a hidden path is listed, and each of its entries that is neither
 * hidden nor on the way gets a rule.  (What is created later in those
 * directories is not allowed; a link's target has an entry of its own.)
 * The listed directories themselves may be listed by the program when
 * list_ways is set.
 */
static int allow_all_but(struct sl_run *run, int ruleset, uint64_t h, const char *dir,
			 const char *const *hidden, bool terminals, bool list_ways)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	if (list_ways && add_rule(ruleset, dfd, h & LANDLOCK_ACCESS_FS_READ_DIR) != 0) {
		close(dfd);
		return -1;
	}
	char buf[8192];
	long n;
	int r = 0;
	while (!r && (n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && !r;) {
			struct { uint64_t ino; int64_t o; unsigned short reclen;
				 unsigned char type; char name[]; } *d = (void *)(buf + off);
			off += d->reclen;
			if (d->type == DT_LNK || !strcmp(d->name, ".") || !strcmp(d->name, ".."))
				continue;
			char path[4096];
			if (snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "",
				     d->name) >= (int)sizeof(path))
				continue;
			if (hidden_entry(path, hidden, terminals))
				continue;
			if (d->type == DT_DIR && on_the_way(path, hidden, terminals)) {
				r = allow_all_but(run, ruleset, h, path, hidden, terminals, list_ways);
				continue;
			}
			/* no pid namespace here: /proc is ours too */
			int efd = openat(dfd, d->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (efd < 0)
				continue;
			r = add_rule(ruleset, efd, h);
			keep_fd(run, efd);
		}
	}
	close(dfd);
	return r;
}

/*
 * --isolate-tmp for an unprivileged caller rests on a mount namespace (a
 * fresh /tmp): the scratch directories of other runs are the same uid's.
 * Where namespaces are refused (a container's profile, a sysctl), Landlock
 * gives the same view: every path is allowed except what lies in the
 * scratch directory's parent (/tmp), where only the run's own directory
 * and the paths the caller handed over (as bound back in a fresh /tmp) are.
 * The terminals go too when they must (see hide_terminals).
 */
static int hide_scratch_parent(struct sl_run *run, int ruleset, uint64_t h, bool terminals)
{
	char parent[4096];
	if (!realpath(run->tmp_dir, parent))
		return -1;
	char *slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -1; /* a scratch directory right under / is not hidden */
	*slash = 0;
	const char *hidden[] = { parent, NULL };
	int r = allow_all_but(run, ruleset, h, "/", hidden, terminals, false);
	if (!r)
		r = add_path(run, ruleset, run->tmp_dir, h, h, true);
	for (int i = 0; i < run->n_keep && !r; i++)
		r = add_path(run, ruleset, run->keep[i], h, h, false);
	return r;
}

/*
 * Terminals by name.  The program never holds a descriptor of the
 * grader's terminal (relay.c), and in a mount namespace it has a devpts of
 * its own; without one, a program that may open a terminal under /dev/pts
 * (its uid's own, as in an ordinary user's run, or one open to all) could
 * open the grader's by name.  Then, where there is Landlock, every path
 * but the terminals is allowed.  Probed per run: a grader without a
 * terminal of its own (a server, a container, CI) pays nothing.
 */
static bool terminals_reachable(const struct sl_run *run)
{
	if (run->mount_proc) /* a mount namespace: a devpts of its own */
		return false;
	uid_t uid = run->drop_privs ? run->uid : geteuid();
	DIR *d = opendir("/dev/pts");
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		struct stat st;
		if (e->d_type != DT_CHR || !strcmp(e->d_name, "ptmx") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		found = st.st_uid == uid || (st.st_mode & (S_IROTH | S_IWOTH));
	}
	closedir(d);
	return found;
}

int sl_landlock_prepare(struct sl_run *run, const struct sandlock_features *f,
			struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	int abi = f->landlock_abi;
	/* --landlock (a profile, --strict): its list, or the defaults;
	 * otherwise, where the kernel has Landlock, the default allow-list,
	 * which --ro and --rw widen, unless --no-landlock */
	bool whole_list = p->landlock || p->strict;
	bool asked = whole_list || p->ro.n || p->rw.n;
	bool by_default = !whole_list && !p->no_landlock && abi >= 1;
	bool want_fs = asked || by_default;
	bool hide = run->hide_scratch && !want_fs && run->tmp_dir;
	run->landlock_fd = -1;
	sl_stored_reset(&run->stored);
	run->proc_self = false;
	run->workdir_dropped = false;
	bool terminals = !want_fs && abi >= 1 && terminals_reachable(run);
	/* --landlock where the host has none: 125, unless the caller takes a
	 * weaker run (--best-effort), which goes on and names it missing;
	 * --require landlock and --strict still fail closed */
	bool must = (p->require & SANDLOCK_LAYER_LANDLOCK) || p->strict ||
		    (asked && !p->best_effort);
	/* no Landlock, a mount namespace: the same list as a root of binds */
	bool by_mounts = run->fs_by_mounts && want_fs;
	if (must && abi < 1 && !by_mounts) {
		int i = 4; /* SANDLOCK_LAYER_LANDLOCK's bit */
		sl_seterr(res, "%s: landlock is %s on this host (%s); %s",
			  asked ? "--landlock" : "required layer landlock",
			  sandlock_state_name(f->state[i]), f->why[i],
			  sandlock_feature_remedy(f, SANDLOCK_LAYER_LANDLOCK));
		return SANDLOCK_ENOSYS;
	}
	if ((p->require & SANDLOCK_LAYER_LANDLOCK_NET) && abi < 4) {
		sl_seterr(res, "landlock network rules need Landlock ABI 4 (have %d)", abi);
		return SANDLOCK_ENOSYS;
	}
	if ((p->require & SANDLOCK_LAYER_LANDLOCK_SCOPE) && abi < 6) {
		sl_seterr(res, "landlock scoping needs Landlock ABI 6 (have %d)", abi);
		return SANDLOCK_ENOSYS;
	}
	if (abi < 1 && !by_mounts)
		return 0;
	struct sl_ruleset_attr attr = { 0, 0, 0 };
	size_t size = sizeof(uint64_t);
	/* Without --landlock the run still gets a Landlock domain, refusing
	 * only device nodes (mknod is blocked anyway): a domain alone keeps
	 * /proc/<pid>/{environ,maps,mem} and ptrace of every process outside
	 * it out of reach, even one running as the same uid. */
	attr.handled_access_fs = want_fs || hide || terminals ? fs_rights(abi)
				 : LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK;
	if (abi >= 4) {
		size = 2 * sizeof(uint64_t);
		if (p->no_network && (want_fs || abi >= 6))
			attr.handled_access_net = SL_LANDLOCK_ACCESS_NET_BIND_TCP |
						  SL_LANDLOCK_ACCESS_NET_CONNECT_TCP;
	}
	if (abi >= 6) {
		size = sizeof(attr);
		attr.scoped = SL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | SL_LANDLOCK_SCOPE_SIGNAL;
	}
	if (!attr.handled_access_fs && !attr.handled_access_net && !attr.scoped)
		return 0;
	int fd = by_mounts ? -1 : (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (fd < 0 && !by_mounts) {
		sl_seterr(res, "landlock: cannot create ruleset: %s", strerror(errno));
		return SANDLOCK_ESETUP;
	}
	uint64_t h = attr.handled_access_fs;
	if (want_fs) {
		bool defaults = !whole_list || (!p->ro.n && !p->rw.n);
		int r = 0;
		const char *bad = NULL;
		for (size_t i = 0; i < p->ro.n + p->rw.n && !r; i++) {
			bool ro = i < p->ro.n;
			const char *path = ro ? p->ro.v[i] : p->rw.v[i - p->ro.n];
			/* "@workdir": the program's, whatever the caller named
			 * it; a container's default working directory is /,
			 * and a profile's rule for it would open the machine
			 * (a path named as such, --ro /, is the caller's word) */
			if (!strcmp(path, "@workdir")) {
				path = p->workdir ? p->workdir : ".";
				char real[4096];
				if (realpath(path, real) && holds_system(real, false)) {
					sl_seterr(res, "%s @workdir: the working directory is %s, which "
						       "holds the system's directories; give the program "
						       "one with --workdir DIR (or name it with --%s %s)",
						  ro ? "ro" : "rw", real, ro ? "ro" : "rw", real);
					close(fd);
					return SANDLOCK_EINVAL;
				}
			}
			if ((r = add_path(run, fd, path, ro ? FS_RO : h, h, true)))
				bad = path;
			else if (!ro && run->drop_privs && run->uid_lock >= 0)
				sl_stored_note_shared(&run->stored, path); /* a --rw /tmp */
		}
		if (defaults) {
			for (const char *const *d = sl_landlock_default_ro; *d && !r; d++)
				/* (a root of binds needs the link itself) */
				if (d == sl_landlock_default_ro || run->fs_by_mounts || !under_usr(*d))
					r = add_path(run, fd, *d, default_rights(*d, FS_RO), h, false);
			for (const char *const *d = sl_landlock_default_rw; *d && !r; d++)
				r = add_path(run, fd, *d, default_rights(*d, h), h, false);

			const char *wd = p->workdir ? p->workdir : ".";
			char real[4096];
			/* a container's default working directory is /: the
			 * rule would open the whole file system.  Asked for,
			 * that is an error; by default the working directory
			 * is left out, and the report says so */
			bool sys = !r && realpath(wd, real) && holds_system(real, !whole_list);
			if (sys && whole_list) {
				sl_seterr(res, "--landlock: the working directory is %s, which holds the "
					       "system's directories; give the program one with "
					       "--workdir DIR (or name what it may use with --ro/--rw)",
					  real);
				close(fd);
				return SANDLOCK_EINVAL;
			}
			run->workdir_dropped = sys;
			if (!r && !sys && (r = add_path(run, fd, wd, h, h, true)))
				bad = wd;
			if (!r && !whole_list)
				r = allow_own(run, fd, h);
		}
		if (!r && run->tmp_dir && (r = add_path(run, fd, run->tmp_dir, h, h, true)))
			bad = run->tmp_dir;
		/* the policy's tmpfs directories are the program's (made by
		 * the child, which fails the run if it cannot) */
		for (size_t i = 0; i < p->tmpfs.n && !r; i++)
			if ((r = add_path(run, fd, p->tmpfs.v[i], h, h, false)))
				bad = p->tmpfs.v[i];
		/* the link farm the JDK and compilers are reached through
		 * (/usr/bin/javac -> /etc/alternatives/javac): Landlock follows
		 * a link unasked, a root of binds needs it there (links only) */
		if (!r && run->fs_by_mounts)
			r = add_path(run, fd, "/etc/alternatives", FS_RO, h, false);
		/* the WebAssembly backend: its executable and the guest's
		 * standard library, and the working directory it gives the guest */
		for (int i = 0; i < 2 && !r; i++)
			if (run->wasm_paths[i] && (r = add_path(run, fd, run->wasm_paths[i], FS_RO, h, true)))
				bad = run->wasm_paths[i];
		bool wd_ro = false;
		for (size_t i = 0; i < p->ro.n; i++)
			wd_ro |= !strcmp(p->ro.v[i], "@workdir");
		if (!r && run->wasm_argv && !defaults && !wd_ro) {
			const char *wd = p->workdir ? p->workdir : ".";
			if ((r = add_path(run, fd, wd, h, h, true)))
				bad = wd;
		}
		/* the program's interpreter or binary given by path */
		if (r) {
			sl_seterr(res, "landlock: cannot allow %s: %s", bad ? bad : "a path",
				  strerror(errno));
			close(fd);
			return SANDLOCK_ESETUP;
		}
	}
	if (hide && hide_scratch_parent(run, fd, attr.handled_access_fs, terminals) != 0) {
		sl_seterr(res, "isolate-tmp: cannot hide the other scratch directories: %s",
			  strerror(errno));
		close(fd);
		return SANDLOCK_ESETUP;
	}
	static const char *const none[] = { NULL };
	if (!hide && terminals && allow_all_but(run, fd, h, "/", none, true, true) != 0) {
		sl_seterr(res, "landlock: cannot hide the terminals: %s", strerror(errno));
		close(fd);
		return SANDLOCK_ESETUP;
	}
	if (by_mounts) {
		/* as sl_landlock_apply gives /proc/self: the run's own /proc
		 * (a pid namespace's: its processes only), read-only */
		if ((p->landlock || run->proc_self) &&
		    sl_bind_root_note(run, "/proc", false, false, true) != 0) {
			sl_seterr(res, "bind_root: %s", strerror(errno));
			return SANDLOCK_ESETUP;
		}
		/* the policy's binds, where they are shown */
		for (size_t i = 0; i < p->binds.n; i++)
			if (sl_bind_root_note_bind(run, strchr(p->binds.v[i], ':') + 1) != 0) {
				sl_seterr(res, "bind_root: %s", strerror(errno));
				return SANDLOCK_ESETUP;
			}
		if (sl_bind_root_finish(run) != 0) {
			sl_seterr(res, "bind_root: %s", strerror(errno));
			return SANDLOCK_ESETUP;
		}
		res->layers |= SANDLOCK_LAYER_BIND_ROOT;
		return 0;
	}
	run->landlock_fd = fd;
	res->layers |= (want_fs ? SANDLOCK_LAYER_LANDLOCK : 0) |
		       (attr.handled_access_net ? SANDLOCK_LAYER_LANDLOCK_NET : 0) |
		       (attr.scoped ? SANDLOCK_LAYER_LANDLOCK_SCOPE : 0);
	return 0;
}

/* In the child: its own /proc/<pid> (read-only, so Python, glibc and Node
 * find their /proc/self), then enforce. */
SL_CHILD int sl_landlock_apply(const struct sl_run *run)
{
	if (run->landlock_fd < 0)
		return 0;
	for (int i = 0; i < run->n_proc_rules; i++) {
		const struct sl_proc_rule *pr = &run->proc_rules[i];
		int fd = open(pr->path, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			if (pr->must_exist)
				return -1;
			continue;
		}
		int r = add_rule(run->landlock_fd, fd, pr->access);
		close(fd);
		if (r != 0)
			return -1;
	}
	if (run->proc_self || run->p->landlock || run->p->strict) {
		/* /proc/self resolves to the pid as seen by this /proc */
		int pfd = open("/proc/self", O_PATH | O_CLOEXEC | O_DIRECTORY);
		if (pfd >= 0) {
			add_rule(run->landlock_fd, pfd,
				 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR);
			close(pfd);
		}
	}
	if (syscall(SYS_landlock_restrict_self, run->landlock_fd, 0) != 0)
		return -1;
	return 0;
}
