/*
 * What a run stores in a file system it shares with other runs: a tmpfs
 * (RAM), or a disk.
 *
 * The run's private scratch directory (HOME and TMPDIR under --clean-env)
 * lives in the host's /tmp where the run has no mount namespace (every
 * default container), the seed command line's TMPDIR is its working
 * directory, and a grader's working directories are often under /tmp.
 * Where that /tmp is a tmpfs (a container's --tmpfs /tmp, Kubernetes'
 * emptyDir in memory, Debian's own /tmp since 13), what one run writes
 * there is RAM that no --mem counted and a space its neighbours need: a
 * run filled a container's 64 MiB /tmp through its scratch directory, and
 * every neighbour's scratch write failed with ENOSPC, verdict ok.
 *
 * So the places the allow-list lets the run write (its Landlock rules with
 * more than read rights, or the binds of a root made of mounts) that lie
 * on a tmpfs of the host's are noted as the rules are made, and the
 * accounting (accounting.c) charges what the run stores in them as it
 * does a shared /dev/shm (shm.c): against --mem with the rest of its
 * memory, and never more than a quarter of that tmpfs (SL_SHM_SHARE), past
 * which the run is stopped as memory_limit.  The run's are, where it has a
 * uid of its own (--uid-pool), the entries that uid owns (a place another
 * run may write too, a --rw /tmp, holds others' new files); else the
 * entries whose inode changed since the run began (ctime, which no program
 * can set back: a file made, written, renamed or linked; in a place shared
 * with runs of the same uid, theirs too: the run is charged more, never
 * less); each at its length where that is more than it holds, a page at
 * least, and the files of that tmpfs its processes removed and still
 * hold.  A file of the grader's that the run may write and grows is not
 * its uid's: --fsize bounds it.  The run's start is
 * read from the fine clock: a grader's file changed just before it is not
 * the run's (a file system stamps from a coarser clock, up to a tick
 * behind, unless someone looked at the file: on a kernel with multigrain
 * stamps a grader's chmod just before the run came after a coarse start).
 * So a file the program wrote whole within that tick after its start and
 * never touched again is not seen, where it has no uid of its own: what
 * it can write in the first milliseconds of its life, --fsize each.  The places are looked
 * at when everything the tmpfs holds could decide (the samples' gate), and
 * as a file is made or written in one of them or in a directory the run
 * made there (an inotify watch on each, added as a walk finds it, up to
 * SL_STORED_WATCHES: a run that wrote 64 MiB in a subdirectory in 40 ms
 * passed its share by all of it between two samples).
 * What the run's own mount namespace holds is counted elsewhere (its
 * tmpfs).
 *
 * On a disk (a container's overlay /tmp, the default without --tmpfs; a
 * working directory on the host's disk) the same run's entries may take
 * at most a quarter of what was free there as the run began, past which
 * it is stopped as file_size_limit (a run filled a container's /tmp, and
 * with it the node's disk, at --fsize a file).  The share is each run's:
 * four runs at once that each take theirs fill it, as on a tmpfs (a share
 * of what is free now, for every run, would bound them all together, but
 * stopped honest runs as the others filled it: docs/graders.md).  Not
 * charged against --mem (not RAM), not watched (a disk fills at a disk's
 * pace, from a share of gigabytes, and a program writing its working
 * directory in a loop would wake us at every write): walked when the disk
 * grew, by anyone, by what is left of the share since the last look, one
 * statfs per sample until then (accounting.c).
 *
 * The walk reads what the program could reach: as its uid where it runs
 * as another than ours (a container's root without capabilities cannot
 * enter a 0700 directory of the run's).  A directory of the run's uid that
 * it made unreadable, or deeper than SL_STORED_DEPTH, hides what it holds:
 * the run is then charged with all the tmpfs holds, as a shared /dev/shm's
 * hidden files are.  Its cost is the run's own files (and the grader's in
 * its working directory), never the host's.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define SL_STORED_DEPTH 32
#define SL_STORED_EVENTS (IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_ONLYDIR)

void sl_stored_reset(struct sl_stored *s)
{
	for (int i = 0; i < s->n; i++)
		close(s->place[i].fd);
	s->n = 0;
	for (int i = 0; i < s->n_shared; i++)
		close(s->shared[i].fd);
	s->n_shared = 0;
}

/*
 * The system's /tmp or /var/tmp opened with --rw: where the run has a uid
 * of its own, what it leaves there goes with it, as in a shared /dev/shm
 * (shm.c): its uid's entries, with all they hold, but for a path its
 * command line names (an output the grader reads: "--rw /tmp -- prog
 * /tmp/out").  Only these two: a shared directory of the grader's (its
 * working directory, chmod 1777 for the uid pool) holds what the program
 * made for it, a compiler's binary for the next step.  Swept only where
 * an entry was made or removed there since the run began (the directory's
 * time): the sweep reads the whole directory, which costs with the host's
 * files.  What the run made inside another's directory there is not found.
 */
void sl_stored_note_shared(struct sl_stored *s, const char *path)
{
	const char *dir = !strcmp(path, "/tmp") || !strcmp(path, "/tmp/") ? "/tmp"
			  : !strcmp(path, "/var/tmp") || !strcmp(path, "/var/tmp/") ? "/var/tmp"
			  : NULL;
	if (!dir || s->n_shared == (int)(sizeof(s->shared) / sizeof(s->shared[0])))
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || (st.st_mode & 01002) != 01002) {
		close(fd);
		return;
	}
	s->shared[s->n_shared++] = (struct sl_stored_shared){ fd, st.st_mtim, dir };
}

/* Does argv name dir/name, or something under it? */
static bool named(char *const *argv, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	for (char *const *a = argv; a && *a; a++) {
		const char *p = *a, *eq = strchr(p, '=');
		if (p[0] != '/' && eq && eq[1] == '/')
			p = eq + 1; /* of=/tmp/out */
		if (!strncmp(p, dir, dl) && p[dl] == '/' && !strncmp(p + dl + 1, name, nl) &&
		    (p[dl + 1 + nl] == 0 || p[dl + 1 + nl] == '/'))
			return true;
	}
	return false;
}

void sl_stored_sweep(struct sl_stored *s, uid_t uid, char *const *argv)
{
	for (int i = 0; i < s->n_shared; i++) {
		struct stat st;
		const struct timespec *t = &s->shared[i].mtime;
		int fd = s->shared[i].fd;
		if (fstat(fd, &st) == 0 && st.st_mtim.tv_sec == t->tv_sec &&
		    st.st_mtim.tv_nsec == t->tv_nsec)
			continue; /* nothing made or removed there */
		int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (!d) {
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
			    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != uid ||
			    named(argv, s->shared[i].path, e->d_name))
				continue;
			sl_remove_entry(dfd, e->d_name, &st, uid);
		}
		closedir(d);
	}
}

uint64_t sl_fs_used_kb(const struct statfs *st)
{
	if (st->f_blocks < st->f_bfree)
		return 0;
	return (uint64_t)(st->f_blocks - st->f_bfree) * (uint64_t)st->f_bsize / 1024;
}

void sl_stored_note(struct sl_stored *s, int fd, const char *path)
{
	/* devices (a devtmpfs says it is a tmpfs), and a shared /dev/shm,
	 * which is shm.c's, charged by its owner's uid */
	if (s->n == SL_STORED_MAX || !strncmp(path, "/dev/", 5))
		return;
	int own = fd < 0 ? open(path, O_PATH | O_CLOEXEC) : fd;
	struct statfs sf;
	struct stat st;
	if (own < 0)
		return;
	/* a file system that stores: a tmpfs, or one with blocks of a disk
	 * (not /proc, /sys and their kind, which say they have none); a file
	 * the rules name is bounded by --fsize */
	bool keep = fstatfs(own, &sf) == 0 && (sf.f_type == TMPFS_MAGIC || sf.f_blocks > 0) &&
		    fstat(own, &st) == 0 && S_ISDIR(st.st_mode);
	for (int i = 0; keep && i < s->n; i++)
		keep = s->place[i].dev != st.st_dev || s->place[i].ino != st.st_ino;
	if (keep && fd >= 0)
		own = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	else if (!keep && fd < 0)
		close(own);
	if (!keep || own < 0)
		return;
	if (!s->n)
		clock_gettime(CLOCK_REALTIME, &s->since);
	bool disk = sf.f_type != TMPFS_MAGIC;
	uint64_t used = sl_fs_used_kb(&sf);
	/* a tmpfs: a quarter of its size (RAM, charged with --mem too); a
	 * disk: a quarter of what is free on it now (the host's own files are
	 * not the run's to use up) */
	uint64_t of = disk ? (uint64_t)sf.f_bavail : (uint64_t)sf.f_blocks;
	s->place[s->n++] = (struct sl_stored_place){
		.fd = own, .dev = st.st_dev, .ino = st.st_ino, .wd = -1,
		.share_kb = of * (uint64_t)sf.f_bsize / 1024 / SL_SHM_SHARE,
		.disk = disk, .start_kb = used, .base_kb = used,
	};
}

struct walk {
	struct sl_stored *s;
	int watch;
	dev_t dev;
	uid_t uid;
	uint64_t kb;
	bool hidden;
};

static bool changed_since(const struct stat *st, const struct timespec *t)
{
	return st->st_ctim.tv_sec > t->tv_sec ||
	       (st->st_ctim.tv_sec == t->tv_sec && st->st_ctim.tv_nsec >= t->tv_nsec);
}

/* Another place's root is walked as that place (once). */
static bool a_place(const struct walk *w, ino_t ino)
{
	for (int i = 0; i < w->s->n; i++)
		if (w->s->place[i].dev == w->dev && w->s->place[i].ino == ino)
			return true;
	return false;
}

static void walk_dir(struct walk *w, int fd, int depth)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    st.st_dev != w->dev) /* a mount on it: not this tmpfs */
			continue;
		if (w->s->own_uid ? st.st_uid == w->uid : changed_since(&st, &w->s->since)) {
			uint64_t k = sl_shm_held_kb(&st);
			w->kb += k < 4 ? 4 : k;
		}
		if (!S_ISDIR(st.st_mode) || a_place(w, st.st_ino))
			continue;
		int sub = depth < SL_STORED_DEPTH
				  ? openat(dirfd(d), e->d_name,
					   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				  : -1;
		if (sub >= 0 && w->watch >= 0 && w->s->n_watched < SL_STORED_WATCHES &&
		    changed_since(&st, &w->s->since)) {
			/* a directory the run made: what it writes there next is
			 * seen as it happens, as in the places themselves */
			char path[40];
			snprintf(path, sizeof(path), "/proc/self/fd/%d", sub);
			if (inotify_add_watch(w->watch, path, SL_STORED_EVENTS) >= 0)
				w->s->n_watched++;
		}
		if (sub >= 0)
			walk_dir(w, sub, depth + 1);
		else if (st.st_uid == w->uid && (depth >= SL_STORED_DEPTH || errno == EACCES))
			w->hidden = true; /* the run's, closed to it or too deep */
		/* another uid's closed to the run: nothing of the run's */
	}
	closedir(d);
}

uint64_t sl_stored_walk(struct sl_stored *s, dev_t dev, int watch, bool *hidden)
{
	struct walk w = { .s = s, .watch = watch, .dev = dev, .uid = s->uid };
	for (int i = 0; i < s->n; i++) {
		if (s->place[i].dev != dev)
			continue;
		int fd = openat(s->place[i].fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			walk_dir(&w, fd, 0);
		else if (errno == EACCES)
			w.hidden = true;
	}
	*hidden = w.hidden;
	return w.kb;
}

void sl_stored_watch(struct sl_stored *s, int in)
{
	/* a disk fills at a disk's pace, from a share of gigabytes: its
	 * samples see it in time, and a program writing its working
	 * directory in a loop does not wake us at every write */
	for (int i = 0; i < s->n; i++) {
		if (s->place[i].disk)
			continue;
		char path[40];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", s->place[i].fd);
		s->place[i].wd = inotify_add_watch(in, path, SL_STORED_EVENTS);
	}
}
