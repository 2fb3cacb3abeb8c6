/*
 * A shared /dev/shm: a run without a mount namespace of its own (every
 * default container: no user namespaces there) sees the host's, which
 * POSIX semaphores and shared memory (sem_open, shm_open, Python's
 * multiprocessing) need.  Where the run has a uid of its own (--uid-pool,
 * as root), the default allow-list lets it make, use and remove files
 * there (landlock.c), and:
 *
 *  - its neighbours cannot read or change them: the files sem_open,
 *    shm_open and multiprocessing make are 0600, other runs are other
 *    uids, and the directory is sticky (nobody removes or renames
 *    another's file);
 *  - what it holds there is its own memory, counted against --mem with
 *    the rest (accounting.c), and never more than a quarter of that
 *    tmpfs (SL_SHM_SHARE): past either, the run is stopped as
 *    memory_limit, so one run cannot fill the tmpfs its neighbours need.
 *    Its files there, and those it unlinked and still holds open or
 *    mapped (sl_shm_unlinked_kb);  --mem rather than --disk: they are
 *    RAM, as the files of a run's private tmpfs are (namespaces.c), and
 *    --disk sizes a tmpfs of the run's own, which it has not here;
 *  - what it leaves is removed when it ends, before its uid goes back to
 *    the pool: its files are the entries of /dev/shm its uid owns (it may
 *    make no directory there, but with --no-landlock or --rw it could:
 *    those go with everything in them).
 *
 * The supervisor watches /dev/shm (sl_shm_watch): a file of the run's made,
 * written, truncated or fallocated there is looked at as it happens, not
 * at the next sample, and charged at its length where that is more than
 * it holds (a mapping's pages make no event): a burst between two samples
 * filled a default container's 64 MiB, and a neighbour's page fault in
 * that moment died of SIGBUS.
 *
 * No per-run cost grows with the host's /dev/shm on the way in.  A sample
 * walks /dev/shm only when the run's share could decide something: when
 * everything the tmpfs holds (a page per file at least) together with the
 * run's other memory passes --mem, or passes the share.  At the end it is
 * walked only if an entry was made or removed there since the run began
 * (the directory's time).  A supervisor killed before its sweep leaves a
 * mark in its uid's lock file (uidpool.c), and the next run of that uid
 * sweeps first.
 *
 * Where every run has one uid (a non-root caller without user
 * namespaces, root without --uid-pool) nothing here tells one run's files
 * from another's: /dev/shm stays closed, and the report's missing says so.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <unistd.h>

bool sl_shm_shared(const struct sl_run *run)
{
	return run->drop_privs && run->uid_lock >= 0 && !run->mount_tmp;
}

int sl_shm_open_dir(void)
{
	return open("/dev/shm", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

uint64_t sl_shm_share_kb(int dir)
{
	struct statfs st;
	if (fstatfs(dir, &st) != 0)
		return 0;
	return (uint64_t)st.f_blocks * (uint64_t)st.f_bsize / 1024 / SL_SHM_SHARE;
}

/* What a file of the run's is charged: its length where that is more than
 * it holds, since a file grows by its mapped pages with no event the watch
 * sees (below), up to its length: a file made long with ftruncate is
 * charged before its pages are touched. */
uint64_t sl_shm_held_kb(const struct stat *st)
{
	uint64_t blocks = (uint64_t)st->st_blocks / 2, len = ((uint64_t)st->st_size + 1023) / 1024;
	return S_ISREG(st->st_mode) && len > blocks ? len : blocks;
}

/* Remove name (of dir), as its owner where we may not as ourselves: root
 * without CAP_FOWNER is held by the sticky bit like anyone else. */
bool sl_remove_entry(int dir, const char *name, const struct stat *st, uid_t uid)
{
	if (S_ISDIR(st->st_mode)) {
		int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			sl_remove_tree(fd);
	}
	int flags = S_ISDIR(st->st_mode) ? AT_REMOVEDIR : 0;
	if (unlinkat(dir, name, flags) == 0 || errno == ENOENT)
		return true;
	if (errno != EPERM && errno != EACCES)
		return false;
	uid_t was = (uid_t)setfsuid(uid);
	bool ok = unlinkat(dir, name, flags) == 0 || errno == ENOENT;
	setfsuid(was);
	return ok;
}

uint64_t sl_shm_sweep(int dir, uid_t uid, bool remove, bool *clean, uint64_t *all_kb)
{
	uint64_t kb = 0, all = 0;
	bool all_gone = true;
	int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		if (clean)
			*clean = false;
		if (all_kb)
			*all_kb = 0;
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		/* a page at least: an empty file's inode is kernel memory */
		uint64_t k = (uint64_t)st.st_blocks / 2;
		all += k;
		if (st.st_uid != uid)
			continue;
		k = sl_shm_held_kb(&st);
		kb += k < 4 ? 4 : k;
		if (remove && !sl_remove_entry(fd, e->d_name, &st, uid))
			all_gone = false;
	}
	closedir(d);
	if (clean)
		*clean = all_gone;
	if (all_kb)
		*all_kb = all;
	return kb;
}

/*
 * Files of the tmpfs (device dev) that the run's processes removed from
 * the directory and still hold, by a descriptor or a mapping: the space is
 * not freed until they let go, and no walk of the directory sees it.  Read
 * from /proc/PID/fd and /proc/PID/maps as the run's uid (the kernel's
 * check for another uid's files there wants CAP_SYS_PTRACE, which a
 * container's root has not).  A mapping counts its length (of a file larger
 * than what it maps, the rest is not seen).  *hidden: a process of the run
 * would not show them (it made itself not dumpable).
 */
#define SL_SHM_MAX_INODES 256
/*
 * A process whose descriptors or maps we may not read hides them, unless
 * it has no memory left to hide: one that is exiting or a zombie has
 * given up its mm, and the kernel then shows its /proc/PID as root's
 * (task_dump_owner).  Read from /proc/PID/stat, which anyone may read:
 * the state (Z, X) and the flags (PF_EXITING); and a live process whose
 * /proc/PID/fd is still its uid's did not hide (two runs side by side in a
 * container were each charged with another's 400 MB without this).  Without this every run
 * whose last sample met its program dying was charged with all that the
 * shared tmpfs held unnamed, other runs' and the host's included.
 */
static bool hides(pid_t pid)
{
	struct sl_pstat st;
	if (!sl_proc_stat(pid, &st))
		return false; /* gone */
	if (st.state == 'Z' || st.state == 'X' || (st.flags & 0x4)) /* PF_EXITING */
		return false;
	/* a process that made itself not dumpable shows its /proc/PID/fd
	 * as root's; one still shown as its own uid's hides nothing (what
	 * refused us was not its choice) */
	char path[48];
	struct stat pst;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	return stat(path, &pst) != 0 || pst.st_uid == 0;
}

uint64_t sl_shm_unlinked_kb(dev_t dev, uid_t uid, const pid_t *pids, size_t n, bool *hidden)
{
	/* (a run in a user namespace of its own only as its euid) */
	struct sl_as as;
	sl_as_run(uid, uid, &as);
	uint64_t kb = sl_unlinked_kb(dev, pids, n, hidden, &(bool){ false });
	sl_as_self(&as);
	return kb;
}

uint64_t sl_unlinked_kb(dev_t dev, const pid_t *pids, size_t n, bool *hidden, bool *refused)
{
	ino_t seen[SL_SHM_MAX_INODES];
	int nseen = 0;
	uint64_t kb = 0;
	char want[32];
	snprintf(want, sizeof(want), " %02x:%02x ", major(dev), minor(dev));
	for (size_t i = 0; i < n; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/fd", (int)pids[i]);
		DIR *d = opendir(path);
		if (!d) {
			if (errno != ENOENT && errno != ESRCH) {
				*refused = true;
				if (hides(pids[i]))
					*hidden = true;
			}
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			struct stat st;
			if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, 0) != 0) {
				if (e->d_name[0] != '.' && errno == EACCES) {
					*refused = true;
					if (hides(pids[i]))
						*hidden = true;
				}
				continue;
			}
			if (st.st_dev != dev || st.st_nlink != 0 || !S_ISREG(st.st_mode))
				continue;
			bool dup = false;
			for (int j = 0; j < nseen && !dup; j++)
				dup = seen[j] == st.st_ino;
			if (dup)
				continue;
			if (nseen < SL_SHM_MAX_INODES)
				seen[nseen++] = st.st_ino;
			kb += sl_shm_held_kb(&st);
		}
		closedir(d);
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pids[i]);
		FILE *f = fopen(path, "re");
		if (!f) {
			if (errno != ENOENT && errno != ESRCH) {
				*refused = true;
				if (hides(pids[i]))
					*hidden = true;
			}
			continue;
		}
		char line[512];
		while (fgets(line, sizeof(line), f)) {
			unsigned long lo, hi, ino;
			char *at = strstr(line, want);
			if (!at || !strstr(line, " (deleted)") || sscanf(line, "%lx-%lx", &lo, &hi) != 2 ||
			    sscanf(at + strlen(want), "%lu", &ino) != 1)
				continue;
			bool dup = false;
			for (int j = 0; j < nseen && !dup; j++)
				dup = seen[j] == (ino_t)ino;
			if (dup)
				continue;
			if (nseen < SL_SHM_MAX_INODES)
				seen[nseen++] = (ino_t)ino;
			kb += (hi - lo) / 1024;
		}
		fclose(f);
	}
	return kb;
}

/*
 * A watch on /dev/shm, so that a file of the run's that is made or grows
 * there is looked at as it happens rather than at the next sample (10 ms
 * or more apart: a burst of writes filled a default container's 64 MiB in
 * between, and a neighbour's page fault in that moment died of SIGBUS).
 * IN_MODIFY comes after every write, truncate and fallocate, also of a
 * file unlinked and held open; pages touched through a mapping make no
 * event, and are charged at the file's length (sl_shm_held_kb).  No watch (the
 * uid's inotify instances are used up: max_user_instances): the samples
 * alone, as before.
 */
int sl_shm_watch(int in)
{
	return inotify_add_watch(in, "/dev/shm", IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_ONLYDIR |
							 IN_DONT_FOLLOW);
}

bool sl_shm_event_mine(int dir, const struct inotify_event *e, uid_t uid)
{
	/* another uid's file is not the run's; one gone (unlinked, still
	 * held) may be */
	struct stat st;
	return (e->mask & IN_Q_OVERFLOW) || !e->len ||
	       fstatat(dir, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid == uid;
}
