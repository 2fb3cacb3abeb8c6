/*
 * Use resources over several processes, leaving evidence of what was used.
 *   tree cpu N MS DIR   N children burn MS ms of CPU each; each that
 *                       finishes creates DIR/cpu.I
 *   tree mem N MB DIR   N children each touch MB MB and create DIR/mem.I,
 *                       then hold it for 2 s (all at once)
 *   tree shm MB DIR     one process maps MB MB of shared executable memory
 *                       in 64 MB pieces, touching each; DIR/shm.K after K MB
 *   tree reaped N MS DIR  as cpu, two children at a time, with SIGCHLD
 *                       ignored: the kernel reaps them, no rusage keeps
 *                       their CPU
 *   tree behind IDLE N MB DIR  IDLE idle children first (more than one
 *                       read of a children list returns), then N that each
 *                       touch MB MB; once all N held it together for 3 s
 *                       and 2 ms per idle child,
 *                       the parent creates DIR/held
 * The parent waits for them all and prints "done".
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void mark(const char *dir, const char *what, long i)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.%ld", dir, what, i);
	close(open(path, O_CREAT | O_WRONLY, 0644));
}

static void burn(long ms)
{
	struct timespec t;
	volatile unsigned long x = 0;
	for (;;) {
		for (int i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		if (t.tv_sec * 1000 + t.tv_nsec / 1000000 >= ms)
			return;
	}
}

static int behind(long idle, long n, long mb, const char *dir)
{
	int go[2], done[2];
	if (pipe(go) != 0 || pipe(done) != 0)
		return 1;
	for (long i = 0; i < idle + n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid)
			continue;
		close(go[1]);
		close(done[0]);
		if (i >= idle) {
			volatile char *p = malloc((size_t)mb << 20);
			if (!p)
				_exit(1);
			for (long j = 0; j < (mb << 20); j += 4096)
				p[j] = 1;
			if (write(done[1], "x", 1) != 1)
				_exit(1);
		}
		char c;
		(void)!read(go[0], &c, 1); /* until the parent lets go */
		_exit(0);
	}
	close(done[1]);
	long held = 0;
	char c;
	while (held < n && read(done[0], &c, 1) == 1)
		held++;
	if (held == n) {
		/* longer than two walks of a run this size on a slow guest
		 * under load (a sampled limit is seen within that: accounting.c):
		 * 3 s and 2 ms per idle child, as the attacks' idle_then_hogs */
		struct timespec t = { (3000 + 2 * idle) / 1000, (3000 + 2 * idle) % 1000 * 1000000 };
		while (nanosleep(&t, &t) != 0)
			;
		mark(dir, "held", n);
	}
	close(go[1]);
	while (wait(NULL) > 0)
		;
	puts("done");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *dir = argv[argc - 1];
	if (!strcmp(argv[1], "shm")) {
		long mb = atol(argv[2]);
		for (long k = 64; k <= mb; k += 64) {
			volatile char *p = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE | PROT_EXEC,
						MAP_SHARED | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return 1;
			for (long i = 0; i < (64 << 20); i += 4096)
				p[i] = 1;
			mark(dir, "shm", k);
		}
		sleep(1);
		puts("done");
		return 0;
	}
	if (!strcmp(argv[1], "behind") && argc == 6)
		return behind(atol(argv[2]), atol(argv[3]), atol(argv[4]), dir);
	if (argc < 5)
		return 2;
	long n = atol(argv[2]), amount = atol(argv[3]);
	bool reaped = !strcmp(argv[1], "reaped");
	if (reaped)
		signal(SIGCHLD, SIG_IGN);
	for (long i = 0; i < n; i++) {
		/* ignored SIGCHLD: wait() returns when all children are gone */
		if (reaped && i % 2 == 0)
			while (wait(NULL) > 0)
				;
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid)
			continue;
		if (!strcmp(argv[1], "cpu") || reaped) {
			burn(amount);
			mark(dir, "cpu", i);
		} else {
			volatile char *p = malloc((size_t)amount << 20);
			if (!p)
				_exit(1);
			for (long j = 0; j < (amount << 20); j += 4096)
				p[j] = 1;
			mark(dir, "mem", i);
			sleep(2);
		}
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	puts("done");
	return 0;
}
