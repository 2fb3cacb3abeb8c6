/*
 * Namespaces, where the kernel allows them: pid (a fresh /proc that shows
 * only the run's processes; the whole tree dies with its first process),
 * mount (private tmpfs /tmp and /dev/shm), ipc (SysV IPC and POSIX message
 * queues of its own), uts, and an empty network namespace.
 *
 * Unprivileged callers get them through a user namespace in which the
 * program keeps its own uid and gid (mapped to themselves).  Root needs no
 * user namespace: it creates the others directly and then drops to the
 * unprivileged identity as usual.  They are created by the same clone()
 * that creates the child: no extra process, no helper binary.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NS_NO_USER (CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET)

enum sandlock_unshare sl_unshare_mode(const struct sandlock_policy *p,
				     const struct sandlock_features *f)
{
	if (p->unshare != SANDLOCK_UNSHARE_DEFAULT)
		return p->unshare;
	/* as root, --isolate-tmp keeps runs apart without namespaces (see
	 * scratch.c); an unprivileged caller's runs share its uid */
	bool tmp_needs_ns = (p->isolate_tmp && geteuid() != 0) || p->disk_mb;
	/* the default allow-list keeps a run out of the host's /tmp and
	 * /dev/shm; where the kernel has no Landlock, a mount namespace of
	 * the run's own is the fallback that gives it private ones */
	bool apart_by_ns = !p->no_landlock && f && f->landlock_abi < 1 &&
			   f->state[__builtin_ctz(SANDLOCK_LAYER_USERNS)] == SANDLOCK_AVAILABLE;
	return tmp_needs_ns || apart_by_ns || !p->no_fork ? SANDLOCK_UNSHARE_AUTO
							  : SANDLOCK_UNSHARE_OFF;
}

/* --clean-env in a run that will have a /tmp of its own (the tmpfs of its
 * mount namespace): that /tmp is the run's private HOME and TMPDIR, fresh,
 * reached by no other run, and gone with the namespace, so no directory is
 * made on the host's disk for it (a journalled mkdir and rmdir and a
 * registry entry: about a tenth of a forking run's start-up on ext4).
 * Where the namespaces then fail, the supervisor makes the host's
 * directory after all (see sandlock_run).  Not with an allow-list of the
 * caller's (--landlock, --strict: /tmp is in it only if named), a guard
 * (its own list of paths), --isolate-tmp or --disk (their directories
 * have rules of their own). */
bool sl_namespaces_home_in_tmp(const struct sl_run *run, const struct sandlock_features *f)
{
	const struct sandlock_policy *p = run->p;
	enum sandlock_unshare m = sl_unshare_mode(p, f);
	struct stat st;
	return p->clean_env && !p->isolate_tmp && !p->disk_mb && !p->landlock && !p->strict &&
	       p->guard == SANDLOCK_GUARD_NONE && p->runtime == SANDLOCK_RUNTIME_NATIVE &&
	       (m == SANDLOCK_UNSHARE_AUTO || m == SANDLOCK_UNSHARE_ON) &&
	       f->state[__builtin_ctz(SANDLOCK_LAYER_MOUNTNS)] == SANDLOCK_AVAILABLE &&
	       stat("/tmp", &st) == 0 && S_ISDIR(st.st_mode);
}

static bool under_tmp(const char *path)
{
	return !strncmp(path, "/tmp/", 5) && path[5];
}

/* Under a directory the run gets a private copy of (its /tmp, /var/tmp,
 * /dev/shm): what the caller named there is bound back. */
static bool under_private(const char *path)
{
	return under_tmp(path) || (!strncmp(path, "/var/tmp/", 9) && path[9]) ||
	       (!strncmp(path, "/dev/shm/", 9) && path[9]);
}

static void keep(struct sl_run *run, const char *path)
{
	if (run->n_keep < SL_MAX_KEEP && under_private(path) && access(path, F_OK) == 0)
		run->keep[run->n_keep++] = path;
}

/* The run gets a fresh /tmp (and /var/tmp, /dev/shm); what the caller
 * pointed us at under the old ones
 * (the working directory, the scratch directory, allowed paths, absolute
 * paths in the command line such as the submission itself) is bound back
 * in place. */
static void keep_under_tmp(struct sl_run *run)
{
	const struct sandlock_policy *p = run->p;
	run->n_keep = 0;
	run->n_keep_dirs = 0;
	if (run->cwd)
		keep(run, run->cwd);
	if (run->workdir && run->workdir[0] == '/')
		keep(run, run->workdir);
	if (run->tmp_dir)
		keep(run, run->tmp_dir);
	for (size_t i = 0; i < p->ro.n; i++)
		keep(run, p->ro.v[i]);
	for (size_t i = 0; i < p->rw.n; i++)
		keep(run, p->rw.v[i]);
	/* ... an option's value that is a path (of=/tmp/out), and the
	 * directory of a file the program is to make (as landlock.c allows) */
	for (char *const *a = run->argv; *a; a++) {
		const char *eq = strchr(*a, '=');
		const char *path = (*a)[0] != '/' && eq && eq[1] == '/' ? eq + 1 : *a;
		keep(run, path);
		const char *slash = strrchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : 0;
		int nd = run->n_keep_dirs;
		if (path[0] == '/' && len > 0 && len < sizeof(run->keep_dirs[0]) &&
		    nd < (int)(sizeof(run->keep_dirs) / sizeof(run->keep_dirs[0])) &&
		    access(path, F_OK) != 0) {
			memcpy(run->keep_dirs[nd], path, len);
			run->keep_dirs[nd][len] = 0;
			run->n_keep_dirs++;
			keep(run, run->keep_dirs[nd]);
		}
	}
	/* paths handed over in the environment (EVAL_REQUEST=/tmp/...) */
	for (char **e = run->envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (eq)
			keep(run, eq + 1);
	}
	/* parents before what they contain (shorter first): a path already
	 * visible through its parent's bind is left alone */
	for (int i = 1; i < run->n_keep; i++)
		for (int j = i; j > 0 && strlen(run->keep[j]) < strlen(run->keep[j - 1]); j--) {
			const char *t = run->keep[j];
			run->keep[j] = run->keep[j - 1];
			run->keep[j - 1] = t;
		}
}

SL_CHILD bool sl_path_under(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	return !strncmp(path, dir, l) && (path[l] == '/' || path[l] == 0);
}

/* Strictly under the run's own /tmp or one of the policy's tmpfs
 * directories: a place of the run's own, where a mount point may be made
 * (one that holds it is shorter, so mounted before it: see the order in
 * sl_namespaces_apply). */
SL_CHILD static bool in_own_dir(const struct sandlock_policy *p, const char *path)
{
	if (sl_path_under(path, "/tmp") && strcmp(path, "/tmp"))
		return true;
	for (size_t i = 0; i < p->tmpfs.n; i++)
		if (sl_path_under(path, p->tmpfs.v[i]) && strcmp(path, p->tmpfs.v[i]))
			return true;
	return false;
}

/* A tmpfs directory is mounted on a directory that exists, or in a place
 * of the run's own (made there); said before anything starts. */
static int tmpfs_dst_check(const struct sandlock_policy *p, size_t i, struct sandlock_result *res)
{
	const char *d = p->tmpfs.v[i];
	struct stat st;
	if (in_own_dir(p, d))
		return 0;
	if (stat(d, &st) != 0) {
		sl_seterr(res, "tmpfs %s: %s; a mount point is made only in the run's own /tmp or "
			       "tmpfs, never on the host", d, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		sl_seterr(res, "tmpfs %s: not a directory", d);
		return -1;
	}
	return 0;
}

int sl_namespaces_prepare(struct sl_run *run, const struct sandlock_features *f,
			  struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	enum sandlock_unshare mode = sl_unshare_mode(p, f);
	unsigned ns_layers = SANDLOCK_LAYER_USERNS | SANDLOCK_LAYER_PIDNS |
			     SANDLOCK_LAYER_MOUNTNS | SANDLOCK_LAYER_IPCNS |
			     SANDLOCK_LAYER_NETNS | SANDLOCK_LAYER_UTSNS;
	run->clone_ns_flags = 0;
	run->in_pidns = false;
	/* An allow-list asked for (--landlock, --ro, --rw) where the kernel
	 * has no Landlock: a root of bind mounts of the run's own
	 * (bind_root.c), which needs its mount namespace.  Not for --strict
	 * or --require landlock, which ask for Landlock itself. */
	run->fs_by_mounts = (p->landlock || p->ro.n || p->rw.n) && !p->strict && !p->no_landlock &&
			    !(p->require & SANDLOCK_LAYER_LANDLOCK) && f && f->landlock_abi < 1 &&
			    p->unshare != SANDLOCK_UNSHARE_OFF && p->runtime == SANDLOCK_RUNTIME_NATIVE &&
			    f->state[__builtin_ctz(SANDLOCK_LAYER_MOUNTNS)] == SANDLOCK_AVAILABLE;
	/* a host name needs its uts namespace, whatever else is given */
	unsigned require = p->require | (p->hostname ? SANDLOCK_LAYER_UTSNS : 0) |
			   (p->binds.n || p->tmpfs.n || run->fs_by_mounts ? SANDLOCK_LAYER_MOUNTNS : 0);
	bool want = mode == SANDLOCK_UNSHARE_ON || mode == SANDLOCK_UNSHARE_AUTO ||
		    (require & ns_layers);
	if (p->unshare == SANDLOCK_UNSHARE_OFF && (p->require & ns_layers)) {
		sl_seterr(res, "namespaces were required but --unshare is off");
		return SANDLOCK_EINVAL;
	}
	if (p->unshare == SANDLOCK_UNSHARE_OFF && p->disk_mb && p->runtime != SANDLOCK_RUNTIME_WASM) {
		sl_seterr(res, "--disk needs a mount namespace of the run's own, and --unshare is off");
		return SANDLOCK_EINVAL;
	}
	for (size_t i = 0; i < p->tmpfs.n; i++)
		if (tmpfs_dst_check(p, i, res) != 0)
			return SANDLOCK_EINVAL;
	if (mode == SANDLOCK_UNSHARE_OFF && !(require & ns_layers))
		return 0;
	if (!want)
		return 0;
	bool root = geteuid() == 0;
	/* root without CAP_SYS_ADMIN (a container's root) needs a user
	 * namespace too; its maps name root and the program's identity,
	 * which only a writer outside the namespace may map: we write them */
	bool direct = root && sl_cap_effective(CAP_SYS_ADMIN) &&
		      !(p->require & SANDLOCK_LAYER_USERNS);
	/* whether they work is learnt by trying: see sandlock_run */
	/* Asked for (--unshare on|auto): all of them.  Implied (a run that may
	 * fork, --isolate-tmp, --disk, a namespace in --require): what that
	 * needs, and no more: a pid namespace so that nothing outlives the
	 * run, with its /proc (a mount namespace), and ipc; a fresh /tmp for
	 * --isolate-tmp and --disk; the network when it was refused or
	 * required, uts when required. */
	bool asked = p->unshare != SANDLOCK_UNSHARE_DEFAULT;
	int flags = asked ? NS_NO_USER
		    : CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC |
		      (p->no_network || (p->require & SANDLOCK_LAYER_NETNS) ? CLONE_NEWNET : 0) |
		      ((require & SANDLOCK_LAYER_UTSNS) ? CLONE_NEWUTS : 0);
	run->clone_ns_flags = flags | (direct ? 0 : CLONE_NEWUSER);
	run->in_pidns = true;
	run->parent_maps = root && !direct;
	if (!root) {
		snprintf(run->uid_map, sizeof(run->uid_map), "%u %u 1\n", getuid(), getuid());
		snprintf(run->gid_map, sizeof(run->gid_map), "%u %u 1\n", getgid(), getgid());
	} else if (!direct) {
		snprintf(run->uid_map, sizeof(run->uid_map), "0 0 1\n%u %u 1\n", run->uid, run->uid);
		snprintf(run->gid_map, sizeof(run->gid_map), "0 0 1\n%u %u 1\n", run->gid, run->gid);
	}
	run->mount_proc = true;
	/* a mount namespace of the run's own makes its /tmp and /dev/shm its
	 * own too: neither read, filled nor left for the next run (a tmpfs
	 * mount costs a few microseconds) */
	run->mount_tmp = true;
	if (run->mount_tmp)
		keep_under_tmp(run);
	res->layers |= (direct ? 0 : SANDLOCK_LAYER_USERNS) | SANDLOCK_LAYER_PIDNS |
		       SANDLOCK_LAYER_MOUNTNS | SANDLOCK_LAYER_IPCNS |
		       ((flags & CLONE_NEWNET) ? SANDLOCK_LAYER_NETNS : 0) |
		       ((flags & CLONE_NEWUTS) ? SANDLOCK_LAYER_UTSNS : 0);
	return 0;
}

/* auto: the namespaces did not work here; go on without them. */
void sl_namespaces_disable(struct sl_run *run, struct sandlock_result *res)
{
	run->clone_ns_flags = 0;
	run->parent_maps = false;
	run->in_pidns = false;
	run->mount_proc = run->mount_tmp = false;
	res->layers &= ~(SANDLOCK_LAYER_USERNS | SANDLOCK_LAYER_PIDNS | SANDLOCK_LAYER_MOUNTNS |
			 SANDLOCK_LAYER_IPCNS | SANDLOCK_LAYER_NETNS | SANDLOCK_LAYER_UTSNS);
}

/* The directories on the way to path, from its first `from` bytes (which
 * exist) on: under the fresh /tmp (from 5), or the new root (bind_root.c). */
SL_CHILD int sl_make_parents(char *path, size_t from)
{
	for (char *c = path + from; *c; c++) {
		if (*c != '/')
			continue;
		*c = 0;
		int r = mkdir(path, 0755);
		*c = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* A mount point at path for a directory or a file, and the directories on
 * the way (from its first `from` bytes on); one already there will do. */
SL_CHILD int sl_mount_point(char *path, size_t from, bool dir)
{
	if (sl_make_parents(path, from) != 0)
		return -1;
	if (dir)
		return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
	int f = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (f < 0)
		return -1;
	close(f);
	return 0;
}

/* /dev/shm (or /var/tmp) as a directory of the run's /tmp: one size for
 * all. */
SL_CHILD static int dir_in_tmp(bool have_tmp, const char *opts, const char *target,
			       const char *dir, mode_t mode)
{
	if (!have_tmp)
		return mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
		       chmod(target, mode) != 0 ? -1 : 0;
	if (mkdir(dir, mode) != 0 || chmod(dir, mode) != 0)
		return -1;
	return mount(dir, target, NULL, MS_BIND, NULL);
}

SL_CHILD static int shm_in_tmp(bool have_tmp, const char *opts, const char *target,
			       const char *dir)
{
	return dir_in_tmp(have_tmp, opts, target, dir, 01777);
}

/* --disk: the scratch directory in the run's tmpfs, not on the host's
 * disk: made there (under /tmp) or bound over the host's (elsewhere). */
SL_CHILD static int own_scratch_dir(const struct sl_run *run, bool have_tmp, const char *opts)
{
	uid_t uid = run->drop_privs ? run->uid : geteuid();
	gid_t gid = run->drop_privs ? run->gid : getegid();
	const char *path = run->tmp_dir;
	char buf[4096];
	size_t len = strlen(path);
	if (len >= sizeof(buf))
		return -1;
	if (have_tmp && under_tmp(path)) {
		memcpy(buf, path, len + 1);
		if (sl_make_parents(buf, 5) != 0)
			return -1;
		if (mkdir(path, 0700) != 0 || chown(path, uid, gid) != 0)
			return -1;
		return 0;
	}
	if (!have_tmp) /* a tmpfs of its own, then */
		return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
		       chmod(path, 0700) != 0 || chown(path, uid, gid) != 0 ? -1 : 0;
	const char *dir = "/tmp/.sandlock-scratch";
	if (mkdir(dir, 0700) != 0 || chown(dir, uid, gid) != 0)
		return -1;
	return mount(dir, path, NULL, MS_BIND, NULL);
}

SL_CHILD static int write_file(const char *path, const char *s)
{
	return sl_write_file(AT_FDCWD, path, s);
}

/* Create the mount point for path (a directory or a file, like the object
 * open at fd) in the fresh /tmp, and bind the object there. */
SL_CHILD static int bind_back(int fd, const char *path)
{
	char buf[4096];
	struct stat st;
	size_t len = strlen(path);
	if (len >= sizeof(buf) || fstat(fd, &st) != 0)
		return -1;
	/* already visible through a directory bound back before it: leave
	 * it (creating a mount point there would touch the real directory) */
	struct stat there;
	if (lstat(path, &there) == 0)
		return 0;
	memcpy(buf, path, len + 1);
	if (sl_mount_point(buf, 5, S_ISDIR(st.st_mode)) != 0)
		return -1;
	char src[64];
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	return mount(src, buf, NULL, MS_BIND | MS_REC, NULL);
}

/* With --rw /tmp (nsjail's --tmpfsmount /tmp) the run's /tmp is all the
 * program's, and a Landlock rule there reaches through every host path
 * bound back under it: those not under another --rw (or the working
 * directory the allow-list gives) are made read-only mounts, which no rule
 * can open to writes. */
SL_CHILD static int bind_at(const struct sl_run *run, int fd, const char *dst, const char *spec);
SL_CHILD static int bound_back_ro(const struct sl_run *run, const char *path)
{
	const struct sandlock_policy *p = run->p;
	bool tmp_rw = false;
	for (size_t i = 0; i < p->rw.n; i++) {
		if (!strcmp(p->rw.v[i], "/tmp") || !strcmp(p->rw.v[i], "/tmp/"))
			tmp_rw = true;
		else if (sl_path_under(path, p->rw.v[i]))
			return 0;
	}
	if (!tmp_rw || (run->tmp_dir && sl_path_under(path, run->tmp_dir)))
		return 0;
	/* the working directory, where the default allow-list gives it
	 * (not --ro @workdir): a compiler's output went nowhere */
	const char *wd = p->workdir ? p->workdir : run->cwd;
	bool wd_ro = p->landlock || p->strict || run->workdir_dropped;
	for (size_t i = 0; i < p->ro.n && !wd_ro; i++)
		wd_ro = !strcmp(p->ro.v[i], "@workdir");
	if (!wd_ro && wd && sl_path_under(path, wd))
		return 0;
	return sl_remount_ro(path);
}

/* A bind mount made read-only; the flags a mount of another namespace
 * locks (nosuid, nodev, noexec, atime) are kept, or the kernel refuses. */
SL_CHILD int sl_remount_ro(const char *path)
{
	struct statvfs sv;
	if (statvfs(path, &sv) != 0)
		return -1;
	if (sv.f_flag & ST_RDONLY)
		return 0;
	unsigned long fl = MS_REMOUNT | MS_BIND | MS_RDONLY |
			   ((sv.f_flag & ST_NOSUID) ? MS_NOSUID : 0) |
			   ((sv.f_flag & ST_NODEV) ? MS_NODEV : 0) |
			   ((sv.f_flag & ST_NOEXEC) ? MS_NOEXEC : 0) |
			   ((sv.f_flag & ST_NOATIME) ? MS_NOATIME : 0) |
			   ((sv.f_flag & ST_NODIRATIME) ? MS_NODIRATIME : 0) |
			   ((sv.f_flag & ST_RELATIME) ? MS_RELATIME : 0);
	return mount(NULL, path, NULL, fl, NULL);
}

/* A bind of the policy's: fd (its source) shown at dst.  dst exists, of
 * the source's kind, or is made in the run's own /tmp: never on the
 * host.  Read-only unless the source lies under an rw path. */
SL_CHILD static int bind_at(const struct sl_run *run, int fd, const char *dst, const char *spec)
{
	struct stat st, there;
	char buf[4096];
	if (fstat(fd, &st) != 0 || strlen(dst) >= sizeof(buf))
		return -1;
	if (lstat(dst, &there) != 0) {
		if (!run->mount_tmp || !in_own_dir(run->p, dst))
			return -1; /* ENOENT: not ours to make */
		strcpy(buf, dst);
		if (sl_make_parents(buf, 1) != 0)
			return -1;
		int f = -1;
		if (S_ISDIR(st.st_mode) ? mkdir(buf, 0755) != 0
		    : (f = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
			return -1;
		if (f >= 0)
			close(f);
	} else if (S_ISDIR(st.st_mode) != S_ISDIR(there.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? ENOTDIR : EISDIR;
		return -1;
	}
	char src[64];
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) != 0)
		return -1;
	close(fd);
	size_t sl = (size_t)(strchr(spec, ':') - spec);
	char from[4096];
	snprintf(from, sizeof(from), "%.*s", (int)sl, spec);
	for (size_t i = 0; i < run->p->rw.n; i++) {
		const char *rw = run->p->rw.v[i];
		/* the run's own /tmp and /dev/shm are not the host's */
		if (run->mount_tmp && (!strcmp(rw, "/tmp") || !strcmp(rw, "/tmp/") ||
				       !strcmp(rw, "/dev/shm") || !strcmp(rw, "/dev/shm/")))
			continue;
		if (sl_path_under(from, rw))
			return 0;
	}
	return sl_remount_ro(dst);
}

/*
 * RLIMIT_NPROC counts every process of the user, so a sandbox running as
 * the grader's uid (or as 65534 beside other runs) could not start its
 * threads.  Since Linux 5.14 the count is kept per user namespace: a user
 * namespace of the run's own, created after the privilege drop and before
 * the limit is set (the kernel holds the parent level to the limit in
 * force at creation), makes --nproc count the run's processes only.  The
 * program keeps its uid, mapped to itself, and has no capability: they are
 * cleared here, and no-new-privs holds execve to what the process has.
 * Where user namespaces are refused, the limit counts per user, as it
 * always did.
 *
 * An unmapped uid reads as the overflow uid (65534): when that is the
 * program's uid anyway (root's default), the maps would change nothing the
 * program can see, and writing them costs three /proc files per run.
 */
SL_CHILD void sl_userns_own_count(struct sl_run *run)
{
	/* created with the child: already the run's own */
	run->own_userns_ok = (run->clone_ns_flags & CLONE_NEWUSER) != 0;
	if (!run->own_userns || run->own_userns_ok)
		return;
	uid_t uid = (uid_t)syscall(SYS_geteuid);
	gid_t gid = (gid_t)syscall(SYS_getegid);
	if (syscall(SYS_unshare, CLONE_NEWUSER) != 0)
		return;
	int r = 0;
	if ((uid_t)syscall(SYS_getuid) != uid || (gid_t)syscall(SYS_getgid) != gid) {
		char um[32], gm[32];
		snprintf(um, sizeof(um), "%u %u 1\n", uid, uid);
		snprintf(gm, sizeof(gm), "%u %u 1\n", gid, gid);
		/* see sl_namespaces_apply on dumpability */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		r = write_file("/proc/self/setgroups", "deny") |
		    write_file("/proc/self/uid_map", um) | write_file("/proc/self/gid_map", gm);
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	}
	/* a new user namespace comes with every capability in it */
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (syscall(SYS_capset, &h, d) != 0)
		r = -1;
	run->own_userns_ok = r == 0;
}

/* In the child, in its uts namespace: the host name asked for.  A step of
 * its own, since a host that makes the namespace may still refuse the call
 * (a container profile that allows sethostname only with CAP_SYS_ADMIN):
 * that is not the namespaces failing, and no run goes on without them. */
SL_CHILD int sl_hostname_apply(const struct sl_run *run)
{
	if (!run->p->hostname || !(run->clone_ns_flags & CLONE_NEWUTS))
		return 0;
	return sethostname(run->p->hostname, strlen(run->p->hostname));
}

/* The policy's tmpfs directory i: a fresh directory of the run's tmpfs
 * (or, where the root has no /tmp, a tmpfs of its own) shown at its path,
 * which exists or is made in a place of the run's own. */
SL_CHILD static int tmpfs_at(const struct sl_run *run, bool have_tmp, const char *opts, size_t i)
{
	const char *dst = run->p->tmpfs.v[i];
	char buf[4096], dir[64];
	struct stat st;
	if (!run->mount_tmp || strlen(dst) >= sizeof(buf)) {
		errno = EINVAL;
		return -1;
	}
	if (lstat(dst, &st) != 0) {
		if (!in_own_dir(run->p, dst))
			return -1; /* ENOENT: not ours to make */
		strcpy(buf, dst);
		if (sl_mount_point(buf, 1, true) != 0)
			return -1;
	} else if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	/* not sticky: the run is one user, and in a sticky directory of
	 * another owner the kernel refuses O_CREAT opens of a device bound
	 * into it (may_create_in_sticky: -T /dev -R /dev/null, >/dev/null,
	 * from a user namespace) */
	snprintf(dir, sizeof(dir), "/tmp/.sandlock-tmpfs-%zu", i);
	return dir_in_tmp(have_tmp, opts, dst, dir, 0777);
}

/* In the child, already inside the new namespaces. */
SL_CHILD int sl_namespaces_apply(const struct sl_run *run, volatile int *tmpfs_fd)
{
	if (!run->clone_ns_flags)
		return 0;
	if (run->parent_maps) {
		/* the supervisor writes them (sl_namespaces_parent_maps); it
		 * is not waiting for us (no vfork in a pid namespace) */
		struct timespec ts = { 0, 50 * 1000000 };
		for (int i = 0; i < 600 && !__atomic_load_n(&run->maps_state, __ATOMIC_ACQUIRE); i++)
			syscall(SYS_futex, &run->maps_state, FUTEX_WAIT, 0, &ts, NULL, 0);
		if (__atomic_load_n(&run->maps_state, __ATOMIC_ACQUIRE) != 1) {
			errno = EPERM;
			return -1;
		}
	} else if (run->clone_ns_flags & CLONE_NEWUSER) {
		/* The maps belong to root while the memory we share with the
		 * supervisor is not dumpable: lift that for the few
		 * microseconds the writes take (the program has not started;
		 * only a process that can see the supervisor in /proc could
		 * look, and sandboxes with namespaces cannot). */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		int r = write_file("/proc/self/setgroups", "deny") |
			write_file("/proc/self/uid_map", run->uid_map) |
			write_file("/proc/self/gid_map", run->gid_map);
		int e = errno;
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		errno = e;
		if (r)
			return -1;
	}
	/* the binds' sources as the host has them (one under /tmp is hidden
	 * by the run's own /tmp once it is mounted) */
	const struct sandlock_strlist *binds = &run->p->binds;
	int bfd[SL_MAX_BINDS];
	for (size_t i = 0; i < binds->n && i < SL_MAX_BINDS; i++) {
		char src[4096];
		const char *c = strchr(binds->v[i], ':');
		snprintf(src, sizeof(src), "%.*s", (int)(c - binds->v[i]), binds->v[i]);
		if ((bfd[i] = open(src, O_PATH | O_CLOEXEC)) < 0)
			return -1;
	}
	/* nothing we mount may propagate back to the host */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return -1;
	if (run->mount_proc &&
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
		return -1;
	/* Terminals of our own: a program of the grader's own uid could
	 * otherwise open the grader's terminal by its name under /dev/pts
	 * (see relay.c for why it must not hold one).  Best effort: where
	 * the host refuses a devpts of our own, an empty directory hides
	 * them, and where both are refused the program has what it would
	 * have without a mount namespace. */
	struct stat pts;
	if (stat("/dev/pts", &pts) == 0 && S_ISDIR(pts.st_mode) &&
	    mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		  "newinstance,ptmxmode=0666,mode=0620") != 0)
		mount("tmpfs", "/dev/pts", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
		      "size=0,mode=0755");
	bool have_tmp = false;
	char opts[96] = "";
	if (run->mount_tmp) {
		int kfd[SL_MAX_KEEP];
		bool own_scratch = run->p->disk_mb && run->tmp_dir;
		size_t tlen = run->tmp_dir ? strlen(run->tmp_dir) : 0;
		for (int i = 0; i < run->n_keep; i++) {
			const char *k = run->keep[i];
			/* the scratch directory (named in TMPDIR and HOME too)
			 * is not the host's then */
			bool scratch = own_scratch && !strncmp(k, run->tmp_dir, tlen) &&
				       (k[tlen] == 0 || k[tlen] == '/');
			kfd[i] = scratch ? -1 : open(k, O_PATH | O_CLOEXEC);
		}
		/* One tmpfs holds all the run stores in files (its /tmp, its
		 * /dev/shm, with --disk its scratch directory), under one size
		 * and a number of files that bounds the kernel memory their
		 * inodes take: RAM that the supervisor counts against --mem.
		 * Without --disk it is twice --mem: a program that fills it
		 * passes --mem and is stopped as memory_limit, where a tmpfs
		 * of --mem would fail its write at the limit, before the next
		 * sample, and the verdict would be the program's own. */
		uint64_t size = run->p->disk_mb ? run->p->disk_mb
				: run->p->mem_mb ? 2 * run->p->mem_mb : 256;
		uint64_t inodes = size * 64 < 4096 ? 4096 : size * 64;
		snprintf(opts, sizeof(opts), "mode=1777,size=%llum,nr_inodes=%llu",
			 (unsigned long long)size, (unsigned long long)inodes);
		/* a minimal container root may have no /tmp: nothing to hide */
		struct stat tst;
		have_tmp = stat("/tmp", &tst) == 0;
		if (have_tmp && mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
			return -1;
		if (own_scratch && own_scratch_dir(run, have_tmp, opts) != 0)
			return -1;
		struct stat st;
		if (stat("/dev/shm", &st) == 0 &&
		    shm_in_tmp(have_tmp, opts, "/dev/shm", "/tmp/.sandlock-shm") != 0)
			return -1;
		/* the other directory every run may write */
		if (lstat("/var/tmp", &st) == 0 && S_ISDIR(st.st_mode) &&
		    shm_in_tmp(have_tmp, opts, "/var/tmp", "/tmp/.sandlock-var-tmp") != 0)
			return -1;
		/* what the caller named under the three, back in place: after
		 * all of them, so that a --workdir under /var/tmp is not
		 * covered again by the run's own /var/tmp */
		for (int i = 0; i < run->n_keep; i++) {
			if (kfd[i] < 0)
				continue;
			if (bind_back(kfd[i], run->keep[i]) != 0 ||
			    bound_back_ro(run, run->keep[i]) != 0)
				return -1;
			close(kfd[i]);
		}
		/* into the supervisor's table while we share it: the tmpfs
		 * stays countable after the run's last process, whose mount
		 * namespace goes with it, even if no sample saw it mounted */
		if (run->fd_mode != SL_FD_PRIVATE)
			*tmpfs_fd = open(have_tmp ? "/tmp" : "/dev/shm", O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	/* the policy's tmpfs directories and binds, parents first (a bind
	 * into a tmpfs directory, as /dev/null into an empty /dev; a tmpfs
	 * inside a bind), a tmpfs before a bind at the same depth */
	const struct sandlock_strlist *tmpfs = &run->p->tmpfs;
	size_t nt = tmpfs->n < SL_MAX_TMPFS ? tmpfs->n : SL_MAX_TMPFS;
	size_t nb = binds->n < SL_MAX_BINDS ? binds->n : SL_MAX_BINDS;
	size_t order[SL_MAX_TMPFS + SL_MAX_BINDS], len[SL_MAX_TMPFS + SL_MAX_BINDS];
	for (size_t i = 0; i < nt + nb; i++) {
		order[i] = i;
		len[i] = strlen(i < nt ? tmpfs->v[i] : strchr(binds->v[i - nt], ':') + 1);
		for (size_t j = i; j > 0 && len[order[j]] < len[order[j - 1]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	for (size_t k = 0; k < nt + nb; k++) {
		size_t i = order[k];
		if (i < nt ? tmpfs_at(run, have_tmp, opts, i) != 0
		    : bind_at(run, bfd[i - nt], strchr(binds->v[i - nt], ':') + 1, binds->v[i - nt]) != 0)
			return -1;
	}
	if (run->fs_by_mounts && sl_bind_root_enter(run, have_tmp) != 0)
		return -1;
	return 0;
}

/* In the supervisor, right after the clone: the maps of a root run's user
 * namespace (see sl_namespaces_prepare), then the child may go on. */
void sl_namespaces_parent_maps(struct sl_run *run, pid_t pid)
{
	char path[64];
	int ok = 1;
	const char *files[2] = { "uid_map", "gid_map" };
	const char *maps[2] = { run->uid_map, run->gid_map };
	for (int i = 0; i < 2 && ok; i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, files[i]);
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		ssize_t len = (ssize_t)strlen(maps[i]);
		ok = fd >= 0 && write(fd, maps[i], (size_t)len) == len;
		if (fd >= 0)
			close(fd);
	}
	__atomic_store_n(&run->maps_state, ok ? 1 : -1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &run->maps_state, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* The paths under /tmp a run must still reach (see keep_under_tmp), for
 * Landlock's view of /tmp where there is no fresh one. */
void sl_namespaces_keep_paths(struct sl_run *run)
{
	keep_under_tmp(run);
}
