/* A write past --fsize with SIGXFSZ blocked, then an exit at once (no
 * sample of the supervisor's can see the pending signal before it goes):
 *   xfsz FILE MB [take|thread|exit|live]
 * take: sigtimedwait takes the pending signal first, then exit;
 * thread: a second thread writes, and exits, with the signal blocked in it;
 * exit: the only thread ends by a raw exit (SYS_exit, not exit_group);
 * live: a second thread writes and is still alive (the signal pending in
 * it alone) when the first ends the process.
 * Prints "write failed" when the kernel cut the write (bare, under ulimit -f). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *path;
static long mb;
static int failed;
static int done[2]; /* live: the writer has written */

static void *writer(void *arg)
{
	(void)arg;
	static char buf[1 << 16];
	memset(buf, 'x', sizeof(buf));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return NULL;
	for (long i = 0; i < mb * 16; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			failed = 1;
			break;
		}
	close(fd);
	if (arg) {
		if (write(done[1], "w", 1) != 1)
			return NULL;
		for (;;)
			pause();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	path = argv[1];
	mb = atol(argv[2]);
	const char *mode = argc > 3 ? argv[3] : "";
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGXFSZ);
	sigprocmask(SIG_BLOCK, &s, NULL);
	if (!strcmp(mode, "thread")) {
		pthread_t t;
		pthread_create(&t, NULL, writer, NULL);
		pthread_join(t, NULL);
	} else if (!strcmp(mode, "live")) {
		pthread_t t;
		char c;
		if (pipe(done) != 0 || pthread_create(&t, NULL, writer, "live") != 0 ||
		    read(done[0], &c, 1) != 1)
			return 2;
	} else {
		writer(NULL);
	}
	if (!strcmp(mode, "take")) {
		struct timespec zero = { 0, 0 };
		sigtimedwait(&s, NULL, &zero);
	}
	if (failed)
		printf("write failed\n");
	fflush(stdout);
	if (!strcmp(mode, "exit"))
		syscall(SYS_exit, 0);
	_exit(0);
}
