/*
 * Hold memory of one kind, touching every page, for the verdict matrix
 * (tests/verdicts.py):  hold KIND MB [until-killed]
 *   heap, stack, threads (4 threads, a quarter each), fork (4 processes, a
 *   quarter each), shared_anon, shared_exec, devzero, memfd, sysv, posix
 *   (shm_open, mapped), devshm_file (a file in /dev/shm, not mapped),
 *   tmp_file (a file in /tmp, not mapped)
 * and   hold spin N: N threads that spin until killed (CPU, not memory)
 * Prints "held KIND MB" once it all is held, keeps it for 0.2 s (fork: its
 * four processes together for 0.5 s), exits 0; "failed: why" and 1 if the
 * kernel refused.  until-killed: keeps it until killed, so that a limit
 * the supervisor's samples enforce is reached however late the sample
 * comes (a run under the tiers' load once missed a 0.5 s hold).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static size_t bytes;
static bool forever;

/* what is held, kept: until killed, or for a while */
static void keep(useconds_t us)
{
	if (forever)
		for (;;)
			pause();
	usleep(us);
}

static int fail(const char *why)
{
	printf("failed: %s\n", why);
	return 1;
}

static void touch(volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
}

static int map_fd(int fd, size_t n, int prot, bool sized)
{
	if (fd < 0 || (sized && ftruncate(fd, (off_t)n) != 0))
		return fail("file");
	char *p = mmap(NULL, n, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap");
	touch(p, n);
	return 0;
}

static int write_file(const char *path, size_t n)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0)
		return fail("open");
	static char buf[1 << 16];
	memset(buf, 1, sizeof(buf));
	for (size_t done = 0; done < n; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return fail("write");
	return close(fd);
}

static __attribute__((noinline)) int recurse(size_t left)
{
	volatile char frame[1 << 16];
	frame[0] = 1;
	touch(frame, sizeof(frame));
	return left <= sizeof(frame) ? frame[0] : recurse(left - sizeof(frame)) + frame[1];
}

static void *spin(void *a)
{
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return a;
}

static void *thread_heap(void *a)
{
	(void)a;
	char *p = malloc(bytes / 4);
	if (p)
		touch(p, bytes / 4);
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "until-killed")))
		return 2;
	forever = argc == 4;
	const char *kind = argv[1];
	bytes = (size_t)atol(argv[2]) << 20;
	int r = 0, release = -1;
	if (!strcmp(kind, "spin")) {
		pthread_t t;
		for (long i = 1; i < atol(argv[2]); i++)
			pthread_create(&t, NULL, spin, NULL);
		spin(NULL);
	}
	if (!strcmp(kind, "heap")) {
		char *p = malloc(bytes);
		if (!p)
			return fail("malloc");
		touch(p, bytes);
	} else if (!strcmp(kind, "stack")) {
		recurse(bytes);
	} else if (!strcmp(kind, "threads")) {
		pthread_t t[4];
		for (int i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, thread_heap, NULL) != 0)
				return fail("pthread_create");
		for (int i = 0; i < 4; i++) {
			void *p;
			pthread_join(t[i], &p);
			if (!p)
				return fail("malloc in a thread");
		}
	} else if (!strcmp(kind, "fork")) {
		/* "held" only once all four say they hold theirs: on a slow
		 * machine a fixed wait would print it before they do; they
		 * keep it until we let them go (the end of the gate pipe) */
		int ready[2], gate[2];
		if (pipe(ready) != 0 || pipe(gate) != 0)
			return fail("pipe");
		for (int i = 0; i < 4; i++) {
			pid_t pid = fork();
			if (pid < 0)
				return fail("fork");
			if (pid == 0) {
				char *p = malloc(bytes / 4);
				if (!p)
					_exit(1);
				touch(p, bytes / 4);
				if (write(ready[1], "x", 1) != 1)
					_exit(1);
				close(gate[1]);
				char c;
				while (read(gate[0], &c, 1) < 0)
					;
				_exit(0);
			}
		}
		close(ready[1]);
		close(gate[0]);
		release = gate[1];
		char got[4];
		size_t n = 0;
		while (n < sizeof(got)) {
			ssize_t k = read(ready[0], got + n, sizeof(got) - n);
			if (k <= 0)
				return fail("a child did not hold its share");
			n += (size_t)k;
		}
	} else if (!strcmp(kind, "shared_anon") || !strcmp(kind, "shared_exec")) {
		int prot = PROT_READ | PROT_WRITE | (kind[7] == 'e' ? PROT_EXEC : 0);
		char *p = mmap(NULL, bytes, prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return fail("mmap");
		touch(p, bytes);
	} else if (!strcmp(kind, "devzero")) {
		r = map_fd(open("/dev/zero", O_RDWR), bytes, PROT_READ | PROT_WRITE, false);
	} else if (!strcmp(kind, "memfd")) {
		r = map_fd(memfd_create("hold", 0), bytes, PROT_READ | PROT_WRITE, true);
	} else if (!strcmp(kind, "posix")) {
		char name[64];
		snprintf(name, sizeof(name), "/hold-%d", (int)getpid());
		int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
		shm_unlink(name);
		r = map_fd(fd, bytes, PROT_READ | PROT_WRITE, true);
	} else if (!strcmp(kind, "sysv")) {
		int id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
		if (id < 0)
			return fail("shmget");
		char *p = shmat(id, NULL, 0);
		shmctl(id, IPC_RMID, NULL); /* gone when detached */
		if (p == (void *)-1)
			return fail("shmat");
		touch(p, bytes);
	} else if (!strcmp(kind, "devshm_file") || !strcmp(kind, "tmp_file")) {
		/* a name of its own: a run killed before its unlink leaves one,
		 * and in a pid namespace every run is pid 2 (the caller removes
		 * what is left) */
		char path[96];
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(path, sizeof(path), "%s/hold-%d-%ld-%ld", kind[0] == 'd' ? "/dev/shm" : "/tmp",
			 (int)getpid(), (long)ts.tv_sec, ts.tv_nsec);
		r = write_file(path, bytes);
		if (!r) {
			printf("held %s %s\n", kind, argv[2]);
			fflush(stdout);
			keep(200000);
		}
		unlink(path);
		return r;
	} else {
		return 2;
	}
	if (r)
		return r;
	printf("held %s %s\n", kind, argv[2]);
	fflush(stdout);
	keep(release >= 0 ? 500000 : 200000);
	if (release >= 0)
		close(release);
	while (wait(NULL) > 0)
		;
	return 0;
}
