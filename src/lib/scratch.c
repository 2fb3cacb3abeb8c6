/*
 * --isolate-tmp: a private scratch directory per run, with an unpredictable
 * name, mode 0700, owned by the identity the program runs as, exported as
 * TMPDIR and HOME, and removed with everything in it when the run ends,
 * however it ends.  Removal never follows a link the program planted.
 *
 * As root the directories live in one shared parent, and creating and
 * removing a directory is the slow part on a journalling file system
 * (about 100 us together on ext4, more than the rest of the layer).  So
 * an emptied directory is parked in a "spare" directory there that only
 * root may enter, and the next run renames it to its own random name and
 * gives it to its program.  Only when no descriptor of the directory can
 * have left the run: with --no-network (no socket to pass one through) and a
 * Landlock domain (no reaching into another run's /proc/<pid>/fd); and
 * only when each run has a uid of its own (--uid-pool), since a concurrent
 * run of the same uid that learnt the name (the program can tell it to
 * anyone through a file) could open the directory, keep the descriptor,
 * and fill it once parked, for the next run to find.  Else a fresh
 * directory, removed at the end.
 *
 * A sandbox killed with SIGKILL leaves its directory: nothing of it runs
 * to remove it.  So each run holds an exclusive lock on an entry named
 * after its directory in a registry of its uid's (root: "runs" in the
 * shared parent, 0700; others: $TMPDIR/sandlock-UID.runs, 0700, theirs)
 * for as long as its supervisor lives, and every new run first sweeps the
 * registry: an entry whose lock it can take is a dead run's, and its
 * directory goes.  The entry is locked before the directory exists, so a
 * run being set up is never taken for a dead one.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/xattr.h>
#include <linux/fs.h>
#include <unistd.h>

/* Root's shared parent of scratch directories: root-owned, 0711 (nobody
 * else can list it), created once and reused; anything else found under
 * that name (another owner, other permissions, a symlink) is not used.
 * Once it is root's, nobody else can replace it: the base is /tmp-like
 * (sticky) or root's own. */
static bool root_dir(const char *path, mode_t mode)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT || (mkdir(path, mode) != 0 && errno != EEXIST) ||
		    lstat(path, &st) != 0)
			return false;
	}
	return S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & 07777) == mode;
}

static char *random_name(const char *parent)
{
	unsigned char rnd[16];
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return NULL;
	char *name = malloc(strlen(parent) + 2 + 2 * sizeof(rnd) + 1);
	if (!name)
		return NULL;
	char *o = name + sprintf(name, "%s/", parent);
	for (size_t i = 0; i < sizeof(rnd); i++)
		o += sprintf(o, "%02x", rnd[i]);
	return name;
}

#define SPARE_SLOTS 8

/* "<parent>/spare/<slot>"; with slot < 0, the spare directory itself */
static bool spare_name(char *buf, size_t len, const char *parent, int slot)
{
	int n = slot < 0 ? snprintf(buf, len, "%s/spare", parent)
			 : snprintf(buf, len, "%s/spare/%d", parent, slot);
	return n > 0 && (size_t)n < len;
}

/* Is there a spare directory only root may enter (made if need be)? */
static bool spare_dir(const char *parent)
{
	char spare[4096];
	return spare_name(spare, sizeof(spare), parent, -1) && root_dir(spare, 0700);
}

/* The inode's generation number, which its owner may set (FS_IOC_SETVERSION
 * on ext2/3/4 without metadata checksums); -1 where there is none. */
static long long generation(int fd)
{
	long v = 0;
	if (ioctl(fd, FS_IOC_GETVERSION, &v) != 0)
		return -1;
	return (unsigned int)v;
}

/* Take a parked directory as name, if there is one, and make it the run's:
 * its owner, times of now as a new directory's (set at parking, they would
 * tell when the last program chose to end), and its generation noted in
 * *gen.  Only root may enter the spare directory, and only empty
 * directories are parked there, so what is found is what was parked. */
static bool claim_spare(const char *parent, const char *name, uid_t uid, gid_t gid,
			long long *gen)
{
	char spare[4096];
	for (int i = 0; i < SPARE_SLOTS; i++) {
		if (!spare_name(spare, sizeof(spare), parent, i) ||
		    renameat2(AT_FDCWD, spare, AT_FDCWD, name, RENAME_NOREPLACE) != 0)
			continue;
		int fd = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		bool ok = fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0700 &&
			  ((st.st_uid == uid && st.st_gid == gid) || fchown(fd, uid, gid) == 0) &&
			  futimens(fd, NULL) == 0;
		if (ok)
			*gen = generation(fd);
		if (fd >= 0)
			close(fd);
		if (ok)
			return true;
		rmdir(name);
	}
	return false;
}

/* A new directory for the run, its generation noted in *gen when asked. */
static bool make_dir(const char *name, uid_t uid, gid_t gid, long long *gen)
{
	if (mkdir(name, 0700) != 0)
		return false;
	if (!gen)
		return chown(name, uid, gid) == 0;
	int fd = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = fd >= 0 && fchown(fd, uid, gid) == 0;
	if (ok)
		*gen = generation(fd);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Can the emptied directory open at fd go to another run?  Only if it
 * carries nothing of this one: whatever the program could set on it and
 * the next program could read would be a channel from run to run (a test
 * case saved for later).  So: no extended attribute or ACL (security.*
 * labels are the system's), no inode flag its parent lacks, the inode
 * generation it had, still one block (a directory never shrinks: its size
 * would tell how many files there were).  Its times are reset when it is
 * claimed. */
static bool as_good_as_new(int fd, int parent_fd, long long gen)
{
	struct stat st;
	if (generation(fd) != gen)
		return false;
	if (fstat(fd, &st) != 0 || st.st_nlink != 2 ||
	    (st.st_mode & 07777) != 0700 || st.st_size > 4096)
		return false;
	char names[1024];
	ssize_t n = flistxattr(fd, names, sizeof(names));
	if (n < 0 && errno != ENOTSUP)
		return false;
	for (ssize_t off = 0; n > 0 && off < n; off += (ssize_t)strlen(names + off) + 1)
		if (strncmp(names + off, "security.", 9))
			return false;
	int flags = 0, parent_flags = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		if (ioctl(parent_fd, FS_IOC_GETFLAGS, &parent_flags) != 0 || flags != parent_flags)
			return false;
	} else if (errno != ENOTTY && errno != EOPNOTSUPP && errno != EINVAL) {
		return false;
	}
	return true;
}

/* Park the emptied directory dir (mode 0700, open at fd) in a free slot. */
static bool park(const char *dir, int fd, long long gen)
{
	const char *slash = strrchr(dir, '/');
	if (!slash)
		return false;
	char parent[4096], spare[4096];
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = pfd >= 0 && as_good_as_new(fd, pfd, gen);
	if (pfd >= 0)
		close(pfd);
	if (!ok)
		return false;
	for (int i = 0; i < SPARE_SLOTS; i++) {
		if (!spare_name(spare, sizeof(spare), parent, i))
			return false;
		if (renameat2(AT_FDCWD, dir, AT_FDCWD, spare, RENAME_NOREPLACE) == 0)
			return true;
		if (errno != EEXIST && errno != ENOTEMPTY)
			return false;
	}
	return false;
}

/* The registry of the runs of our uid whose directories live in parent. */
static bool registry_name(char *buf, size_t len, const char *parent, bool root)
{
	int n = root ? snprintf(buf, len, "%s/runs", parent)
		     : snprintf(buf, len, "%s/sandlock-%u.runs", parent, (unsigned)geteuid());
	return n > 0 && (size_t)n < len;
}

/* Ours, 0700, a directory (made if need be); false for anything else
 * found under that name, which is then not used. */
static bool own_dir(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT || (mkdir(path, 0700) != 0 && errno != EEXIST) ||
		    lstat(path, &st) != 0)
			return false;
	}
	return S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 07777) == 0700;
}

/* A name we make: 32 hexadecimal digits (root), or mkdtemp's sandlock.XXXXXX.
 * Nothing else in a registry is ever acted on. */
static bool scratch_name(const char *n, bool root)
{
	size_t len = strlen(n);
	if (root) {
		if (len != 32)
			return false;
		for (size_t i = 0; i < len; i++)
			if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f')))
				return false;
		return true;
	}
	if (len != 15 || strncmp(n, "sandlock.", 9))
		return false;
	for (size_t i = 9; i < len; i++)
		if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'z') ||
		      (n[i] >= 'A' && n[i] <= 'Z')))
			return false;
	return true;
}


/* Remove the directories of the dead runs in the registry. */
/*
 * Open the directory name (of at) to empty it.  One the program made
 * unreadable is made readable first.  A root without CAP_DAC_OVERRIDE (a
 * container's, its capabilities dropped but SETUID, SETGID and CHOWN)
 * cannot enter a 0700 directory of the program's uid at all, and left
 * every run's scratch in /tmp: it goes in as that uid (this thread's euid,
 * sl_as_run; *as_owner) until sl_as_self.
 */
static int open_to_empty(int at, const char *name, struct sl_as *as, bool *as_owner)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	*as_owner = false;
	int fd = openat(at, name, flags);
	if (fd < 0) {
		fchmodat(at, name, 0700, 0);
		fd = openat(at, name, flags);
	}
	struct stat st;
	if (fd < 0 && errno == EACCES && geteuid() == 0 &&
	    fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) && st.st_uid) {
		sl_as_run(st.st_uid, st.st_gid, as);
		*as_owner = true;
		fchmodat(at, name, 0700, 0);
		fd = openat(at, name, flags);
	}
	return fd;
}

static void sweep(const char *registry, const char *parent, bool root)
{
	int rfd = open(registry, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *reg = rfd >= 0 ? fdopendir(rfd) : NULL;
	if (!reg) {
		if (rfd >= 0)
			close(rfd);
		return;
	}
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *e;
	while (pfd >= 0 && (e = readdir(reg))) {
		if (!scratch_name(e->d_name, root))
			continue;
		int efd = openat(rfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (efd < 0)
			continue;
		if (flock(efd, LOCK_EX | LOCK_NB) == 0) {
			/* its supervisor is gone */
			struct sl_as as;
			bool as_owner;
			int dfd = open_to_empty(pfd, e->d_name, &as, &as_owner);
			if (dfd >= 0)
				sl_remove_tree(dfd);
			if (as_owner)
				sl_as_self(&as);
			if (unlinkat(pfd, e->d_name, AT_REMOVEDIR) == 0 || errno == ENOENT)
				unlinkat(rfd, e->d_name, 0);
		}
		close(efd);
	}
	if (pfd >= 0)
		close(pfd);
	closedir(reg);
}

/* Enter dir (parent/name) in the registry, locked while we live; the
 * directory itself is made after this. */
static void register_run(struct sl_run *run, const char *registry, const char *dir)
{
	const char *name = strrchr(dir, '/');
	if (!name)
		return;
	size_t len = strlen(registry) + strlen(name) + 1;
	char *entry = malloc(len);
	if (!entry)
		return;
	snprintf(entry, len, "%s%s", registry, name);
	/* made under a name no sweep acts on, locked, then renamed into
	 * place: a concurrent run's sweep that found the entry before our
	 * lock took it for a dead run's and removed our directory (a
	 * setup_failed 125 seen under load, two sides of one interactive
	 * run starting together) */
	char *tmp = malloc(len + 1);
	if (!tmp) {
		free(entry);
		return;
	}
	snprintf(tmp, len + 1, "%s/.%s", registry, name + 1);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) != 0 || rename(tmp, entry) != 0) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(entry);
		return;
	}
	free(tmp);
	run->tmp_lock = fd;
	run->tmp_entry = entry;
}

static void unregister_run(struct sl_run *run)
{
	if (run->tmp_entry)
		unlink(run->tmp_entry);
	free(run->tmp_entry);
	run->tmp_entry = NULL;
	if (run->tmp_lock >= 0)
		close(run->tmp_lock);
	run->tmp_lock = -1;
}

int sl_scratch_create(struct sl_run *run, const struct sandlock_features *f,
		      struct sandlock_result *res)
{
	/* --clean-env: HOME and TMPDIR are read by every runtime at start
	 * (Python's user site-packages, ~/.npmrc, ~/.bashrc): a shared /tmp
	 * there would let one run plant code that the next one runs */
	if (!run->p->isolate_tmp && !run->p->clean_env)
		return 0;
	const char *what = run->p->isolate_tmp ? "isolate-tmp" : "clean-env (the run's HOME and TMPDIR)";
	const char *base = getenv("TMPDIR");
	if (!base || base[0] != '/')
		base = "/tmp";
	size_t len = strlen(base) + 32;
	char *dir = malloc(len);
	if (!dir)
		return SANDLOCK_ENOMEM;
	if (run->drop_privs) {
		/* Root: every run's program is 65534, so ownership cannot keep
		 * runs apart.  The scratch directory has a 128-bit random name
		 * that only its own run is told, in a directory of root's that
		 * nobody else can list. */
		snprintf(dir, len, "%s/sandlock-root", base);
		if (!root_dir(dir, 0711)) {
			snprintf(dir, len, "%s/sandlock.XXXXXX", base);
			if (!mkdtemp(dir) || chmod(dir, 0711) != 0) {
				sl_seterr(res, "%s: cannot create a directory in %s: %s",
					  what, base, strerror(errno));
				free(dir);
				return SANDLOCK_ESETUP;
			}
			run->tmp_parent = dir; /* ours alone: removed at the end */
		}
		char *inner = random_name(dir);
		char reg[4096];
		if (!run->tmp_parent && inner && registry_name(reg, sizeof(reg), dir, true) &&
		    root_dir(reg, 0700)) {
			sweep(reg, dir, true);
			register_run(run, reg, inner);
		}
		run->tmp_recycle = !run->tmp_parent && run->p->no_network && run->uid_lock >= 0 &&
				   f->landlock_abi >= 1 && spare_dir(dir);
		long long *gen = run->tmp_recycle ? &run->tmp_gen : NULL;
		bool claimed = inner && gen && claim_spare(dir, inner, run->uid, run->gid, gen);
		if (!run->tmp_parent)
			free(dir);
		if (!claimed && (!inner || !make_dir(inner, run->uid, run->gid, gen))) {
			sl_seterr(res, "%s: cannot create a scratch directory: %s",
				  what, strerror(errno));
			if (inner)
				rmdir(inner);
			free(inner);
			return SANDLOCK_ESETUP;
		}
		dir = inner;
	} else {
		char reg[4096];
		bool registry = registry_name(reg, sizeof(reg), base, false) && own_dir(reg);
		if (registry)
			sweep(reg, base, false);
		snprintf(dir, len, "%s/sandlock.XXXXXX", base);
		if (!mkdtemp(dir)) {
			sl_seterr(res, "%s: cannot create a directory in %s: %s", what,
				  base, strerror(errno));
			free(dir);
			return SANDLOCK_ESETUP;
		}
		if (registry)
			register_run(run, reg, dir);
	}
	run->tmp_dir = dir;
	if (run->p->isolate_tmp)
		res->layers |= SANDLOCK_LAYER_ISOLATE_TMP;
	return 0;
}

/*
 * Remove the contents of the directory open at dfd, however deep, without
 * following a link (unlinkat removes the link, not its target) and with a
 * bounded number of descriptors: one directory is open at a time.  Going
 * back up is through "..", checked against the device and inode noted on
 * the way down, so that a directory moved away meanwhile (a concurrent run
 * of the same uid) is left, not followed out of the tree.  A directory that
 * cannot be emptied is noted and not entered again.  Closes dfd; true when
 * all of it is gone.
 */
struct tree_level {
	dev_t dev;
	ino_t ino;
	char *name;              /* the child we went into */
};

static bool seen(const struct stat *bad, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (bad[i].st_dev == st->st_dev && bad[i].st_ino == st->st_ino)
			return true;
	return false;
}

bool sl_remove_tree(int dfd)
{
	struct tree_level *up = NULL;
	struct stat *bad = NULL;
	size_t depth = 0, cap = 0, nbad = 0;
	bool all = true;
	int fd = dfd;
	while (fd >= 0) {
		char buf[8192];
		long n;
		char *into = NULL;
		lseek(fd, 0, SEEK_SET);
		while (!into && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (long off = 0; off < n && !into;) {
				struct { uint64_t ino; int64_t o; unsigned short reclen;
					 unsigned char type; char name[]; } *e = (void *)(buf + off);
				off += e->reclen;
				if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
					continue;
				if (unlinkat(fd, e->name, 0) == 0 ||
				    unlinkat(fd, e->name, AT_REMOVEDIR) == 0)
					continue;
				struct stat st;
				if (fstatat(fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				    !S_ISDIR(st.st_mode) || seen(bad, nbad, &st)) {
					all = false;
					continue;
				}
				into = strdup(e->name);
			}
		}
		struct stat here;
		if (fstat(fd, &here) != 0) {
			free(into);
			break;
		}
		if (into) {
			int sub = openat(fd, into, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				/* a directory the program made unreadable */
				fchmodat(fd, into, 0700, 0);
				sub = openat(fd, into, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			}
			struct stat st;
			if (sub < 0 || fstat(sub, &st) != 0) {
				if (sub >= 0)
					close(sub);
				if (fstatat(fd, into, &st, AT_SYMLINK_NOFOLLOW) == 0) {
					struct stat *nb = realloc(bad, (nbad + 1) * sizeof(*bad));
					if (nb)
						(bad = nb)[nbad++] = st;
					else
						break;
				}
				free(into);
				all = false;
				continue;
			}
			fchmod(sub, 0700);
			if (depth == cap) {
				size_t nc = cap ? 2 * cap : 16;
				struct tree_level *nu = realloc(up, nc * sizeof(*up));
				if (!nu) {
					close(sub);
					free(into);
					break;
				}
				up = nu;
				cap = nc;
			}
			up[depth++] = (struct tree_level){ here.st_dev, here.st_ino, into };
			close(fd);
			fd = sub;
			continue;
		}
		/* this directory is as empty as it gets: back up */
		if (depth == 0)
			break;
		struct tree_level *lv = &up[--depth];
		int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat pst;
		if (parent < 0 || fstat(parent, &pst) != 0 || pst.st_dev != lv->dev ||
		    pst.st_ino != lv->ino) {
			/* moved away from under us: stop here */
			if (parent >= 0)
				close(parent);
			free(lv->name);
			all = false;
			break;
		}
		close(fd);
		fd = parent;
		if (unlinkat(fd, lv->name, AT_REMOVEDIR) != 0) {
			struct stat *nb = realloc(bad, (nbad + 1) * sizeof(*bad));
			if (nb)
				(bad = nb)[nbad++] = here;
			all = false;
		}
		free(lv->name);
	}
	if (fd >= 0)
		close(fd);
	while (depth > 0)
		free(up[--depth].name);
	free(up);
	free(bad);
	return all;
}

void sl_scratch_remove(struct sl_run *run)
{
	if (!run->tmp_dir) {
		unregister_run(run);
		return;
	}
	struct sl_as as;
	bool as_owner;
	int fd = open_to_empty(AT_FDCWD, run->tmp_dir, &as, &as_owner);
	bool parked = false;
	if (fd >= 0) {
		/* a directory the program made unwritable */
		struct stat st;
		if (fstat(fd, &st) != 0 || (st.st_mode & 07777) != 0700)
			fchmod(fd, 0700);
		/* only an empty directory is parked */
		int keep = run->tmp_recycle ? dup(fd) : -1;
		bool empty = sl_remove_tree(fd);
		if (as_owner)
			sl_as_self(&as);
		parked = empty && keep >= 0 && park(run->tmp_dir, keep, run->tmp_gen);
		if (keep >= 0)
			close(keep);
	} else if (as_owner) {
		sl_as_self(&as);
	}
	if (!parked)
		rmdir(run->tmp_dir);
	free(run->tmp_dir);
	run->tmp_dir = NULL;
	unregister_run(run);
	if (run->tmp_parent)
		rmdir(run->tmp_parent);
	free(run->tmp_parent);
	run->tmp_parent = NULL;
}
