/*
 * --cpus LIST|auto: the run on these CPUs.  sched_setaffinity needs no
 * privilege; set on the supervisor before the fork, it is inherited by the
 * program, its threads and children, and the supervisor's own relay.
 *
 * auto: one CPU per run, distinct among the concurrent runs of one user
 * where there are enough.  A CPU is taken by an exclusive flock on its file
 * in a directory of that user's (0700, its own, not a link): the kernel
 * drops the lock when the supervisor exits, whatever ends it, so a crashed
 * run never holds a CPU.  No file is ever removed (a lock on a removed
 * file would be a lock on nothing).  With every CPU taken, the run is not
 * pinned and says so.
 */
#include "cli.h"
#include "lib/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* "0,2-3": into set; each CPU one we may use. */
static int parse_list(const char *s, const cpu_set_t *allowed, cpu_set_t *set, char *err,
		      size_t errlen)
{
	CPU_ZERO(set);
	const char *p = s;
	while (*p) {
		char *end;
		errno = 0;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || errno || a < 0 || a >= CPU_SETSIZE || (*p < '0' || *p > '9'))
			FAIL("invalid value for --cpus: '%s' (a list such as 0,2-3, or auto)", s);
		p = end;
		if (*p == '-') {
			const char *q = p + 1;
			b = strtol(q, &end, 10);
			if (end == q || errno || b < a || b >= CPU_SETSIZE || *q < '0' || *q > '9')
				FAIL("invalid value for --cpus: '%s' (a list such as 0,2-3, or auto)", s);
			p = end;
		}
		for (long c = a; c <= b; c++) {
			if (!CPU_ISSET(c, allowed))
				FAIL("--cpus %s: CPU %ld is not one this process may use (see taskset -p, "
				     "or the container's cpuset)", s, c);
			CPU_SET(c, set);
		}
		if (*p == ',')
			p++;
		else if (*p)
			FAIL("invalid value for --cpus: '%s' (a list such as 0,2-3, or auto)", s);
	}
	if (!CPU_COUNT(set))
		FAIL("invalid value for --cpus: '%s' (a list such as 0,2-3, or auto)", s);
	return 0;
}

/* The lock directory: the user's own. */
static int lock_dir(void)
{
	char paths[3][4096];
	int n = 0;
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (geteuid() == 0)
		snprintf(paths[n++], sizeof(paths[0]), "/run/sandlock-cpus");
	else if (rt && rt[0] == '/')
		snprintf(paths[n++], sizeof(paths[0]), "%s/sandlock-cpus", rt);
	const char *tmp = getenv("TMPDIR");
	snprintf(paths[n++], sizeof(paths[0]), "%s/sandlock-cpus-%u",
		 tmp && tmp[0] == '/' ? tmp : "/tmp", (unsigned)geteuid());
	for (int i = 0; i < n; i++) {
		if (mkdir(paths[i], 0700) != 0 && errno != EEXIST)
			continue;
		int fd = open(paths[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		    (st.st_mode & 077) == 0)
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

int sl_cpus_apply(const char *spec, int *lock_fd, int *cpu, char *note, size_t notelen,
		  char *err, size_t errlen)
{
	cpu_set_t allowed, set;
	*lock_fd = -1;
	*cpu = -1;
	note[0] = 0;
	if (!spec)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		FAIL("--cpus: cannot read the CPUs we may use: %s", strerror(errno));
	if (strcmp(spec, "auto")) {
		if (parse_list(spec, &allowed, &set, err, errlen) != 0)
			return -1;
	} else {
		int dir = lock_dir();
		if (dir < 0)
			FAIL("--cpus auto: no private lock directory (/run/sandlock-cpus, "
			     "$XDG_RUNTIME_DIR/sandlock-cpus or $TMPDIR/sandlock-cpus-UID)");
		int n = CPU_COUNT(&allowed), start = (int)(getpid() % (n ? n : 1)), seen = 0;
		/* start where our pid points: concurrent runs rarely try the
		 * same CPU first; then every allowed CPU once */
		int order[CPU_SETSIZE], k = 0;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				order[k++] = c;
		for (int i = 0; i < k && *lock_fd < 0; i++) {
			int c = order[(start + i) % k];
			char name[32];
			snprintf(name, sizeof(name), "cpu%d", c);
			int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd < 0)
				continue;
			seen++;
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				*lock_fd = fd;
				*cpu = c;
			} else {
				close(fd);
			}
		}
		close(dir);
		if (*lock_fd < 0) {
			snprintf(note, notelen, "cpus (all %d taken by other runs: not pinned)", seen);
			return 0;
		}
		CPU_ZERO(&set);
		CPU_SET(*cpu, &set);
	}
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		int e = errno;
		if (*lock_fd >= 0)
			close(*lock_fd);
		*lock_fd = -1;
		FAIL("--cpus %s: sched_setaffinity: %s", spec, strerror(e));
	}
	return 0;
}
