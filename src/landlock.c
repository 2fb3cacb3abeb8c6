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
	"/opt", "/dev/urandom", "/dev/random", "/dev/zero", "/proc/cpuinfo",
	"/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu", "/proc/sys/vm/overcommit_memory",
	NULL,
};
const char *const sl_landlock_default_rw[] = { "/dev/null", NULL };

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
}

/* A /proc of its own (pid namespace) has other inodes than ours: rules for
 * paths under /proc are made by the child, from the /proc it sees. */
static bool under_proc(const char *path)
{
	return !strncmp(path, "/proc", 5) && (path[5] == '/' || path[5] == 0);
}

static int add_path(struct sl_run *run, int ruleset, const char *path, uint64_t rights,
		    uint64_t handled, bool must_exist)
{
	if (under_proc(path)) {
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
	keep_fd(run, fd);
	return r;
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
	bool want_fs = p->landlock || p->strict || p->ro.n || p->rw.n;
	bool hide = run->hide_scratch && !want_fs && run->tmp_dir;
	run->landlock_fd = -1;
	bool terminals = !want_fs && abi >= 1 && terminals_reachable(run);
	/* --landlock where the host has none: 125, unless the caller takes a
	 * weaker run (--best-effort), which goes on and names it missing;
	 * --require landlock and --strict still fail closed */
	bool must = (p->require & SANDLOCK_LAYER_LANDLOCK) || p->strict ||
		    (want_fs && !p->best_effort);
	if (must && abi < 1) {
		int i = 4; /* SANDLOCK_LAYER_LANDLOCK's bit */
		sl_seterr(res, "%s: landlock is %s on this host (%s); %s",
			  want_fs ? "--landlock" : "required layer landlock",
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
	if (abi < 1)
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
	int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (fd < 0) {
		sl_seterr(res, "landlock: cannot create ruleset: %s", strerror(errno));
		return SANDLOCK_ESETUP;
	}
	uint64_t h = attr.handled_access_fs;
	if (want_fs) {
		bool defaults = !p->ro.n && !p->rw.n;
		int r = 0;
		const char *bad = NULL;
		for (size_t i = 0; i < p->ro.n + p->rw.n && !r; i++) {
			bool ro = i < p->ro.n;
			const char *path = ro ? p->ro.v[i] : p->rw.v[i - p->ro.n];
			/* "@workdir": the program's, whatever the caller named it */
			if (!strcmp(path, "@workdir")) {
				path = p->workdir ? p->workdir : ".";
				char real[4096];
				if (!ro && realpath(path, real) && !strcmp(real, "/")) {
					sl_seterr(res, "--rw @workdir: the working directory is /, which "
						       "would allow writing everywhere; give the program "
						       "one with --workdir DIR");
					close(fd);
					return SANDLOCK_EINVAL;
				}
			}
			if ((r = add_path(run, fd, path, ro ? FS_RO : h, h, true)))
				bad = path;
		}
		if (defaults) {
			for (const char *const *d = sl_landlock_default_ro; *d && !r; d++)
				if (d == sl_landlock_default_ro || !under_usr(*d))
					r = add_path(run, fd, *d, FS_RO, h, false);
			for (const char *const *d = sl_landlock_default_rw; *d && !r; d++)
				r = add_path(run, fd, *d, h, h, false);
			const char *wd = p->workdir ? p->workdir : ".";
			char real[4096];
			/* a container's default working directory is /: the
			 * rule would open the whole file system */
			if (!r && realpath(wd, real) && !strcmp(real, "/")) {
				sl_seterr(res, "--landlock: the working directory is /, which would allow "
					       "writing everywhere; give the program one with --workdir DIR "
					       "(or name what it may use with --ro/--rw)");
				close(fd);
				return SANDLOCK_EINVAL;
			}
			if (!r && (r = add_path(run, fd, wd, h, h, true)))
				bad = wd;
		}
		if (!r && run->tmp_dir && (r = add_path(run, fd, run->tmp_dir, h, h, true)))
			bad = run->tmp_dir;
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
	if (run->p->landlock || run->p->strict) {
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
