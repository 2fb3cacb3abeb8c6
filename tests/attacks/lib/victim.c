/* victim: a stand-in for the grader's other processes (not part of sandlock).
 *
 *   victim EV GRADERDIR TOKEN MODE       MODE: basic | futex | churn
 *
 * Leaves its own session, holds the secret ($SANDLOCK_TEST_SECRET) in its
 * environment and memory and maps a file whose name contains the secret, then
 * writes EV/victim.addr ("SECRETADDR FLAGADDR") and EV/victim.pid (last; that
 * is the readiness signal). Evidence it leaves for the runner:
 *   EV/victim.sig.N        a handler ran for signal N
 *   EV/victim.mem_modified its flag word was changed from outside
 *   EV/victim.futex_woken  (futex) its shared futex in /dev/shm was woken
 * churn: creates and removes GRADERDIR/expected-SECRET.txt every 20 ms.
 * chatter: sends the secret in a UDP datagram to 127.0.0.1:9 every 10 ms.
 * It exits by itself after 60 s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static const char *EV, *GRADER, *TOKEN;
static char secret_buf[256] = "SECRET-NOT-SET";
static volatile unsigned int flag_word = 0x5a5a5a5a;
static char sigpaths[65][512];

static void handler(int sig)
{
	if (sig > 0 && sig < 65) {
		int fd = open(sigpaths[sig], O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0)
			close(fd);
	}
}

static void touch(const char *name)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", EV, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0)
		close(fd);
}

static void *futex_thread(void *arg)
{
	(void)arg;
	char p[512];
	snprintf(p, sizeof p, "/dev/shm/sandlock-%s.futex", TOKEN);
	int fd = open(p, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, 4096))
		return NULL;
	unsigned int *f = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED)
		return NULL;
	*f = 0;
	touch("victim.futex_ready");
	for (;;) {
		struct timespec ts = { 0, 100 * 1000000 };
		long r = syscall(SYS_futex, f, FUTEX_WAIT, 0, &ts, NULL, 0);
		if (r == 0) {
			touch("victim.futex_woken");
			return NULL;
		}
	}
}

static void *churn_thread(void *arg)
{
	(void)arg;
	char p[1024];
	snprintf(p, sizeof p, "%s/expected-%s.txt", GRADER, secret_buf);
	for (;;) {
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			if (write(fd, "42\n", 3) < 0) {}
			close(fd);
		}
		usleep(1000);
		unlink(p);
		usleep(20000);
	}
	return NULL;
}

static void *chatter_thread(void *arg)
{
	(void)arg;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (;;) {
		sendto(s, secret_buf, strlen(secret_buf), 0, (void *)&a, sizeof a);
		usleep(10000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: victim EV GRADER TOKEN MODE\n");
		return 2;
	}
	EV = argv[1];
	GRADER = argv[2];
	TOKEN = argv[3];
	const char *mode = argv[4];
	setsid();
	const char *s = getenv("SANDLOCK_TEST_SECRET");
	if (s)
		snprintf(secret_buf, sizeof secret_buf, "%s", s);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	for (int i = 1; i < 65; i++) {
		snprintf(sigpaths[i], sizeof sigpaths[i], "%s/victim.sig.%d", EV, i);
		if (i == SIGKILL || i == SIGSTOP || i == 32 || i == 33)
			continue;
		sigaction(i, &sa, NULL);
	}

	/* a mapping whose path carries the secret, for /proc/PID/maps leaks */
	char mp[1024];
	snprintf(mp, sizeof mp, "%s/map-%s", GRADER, secret_buf);
	int mfd = open(mp, O_RDWR | O_CREAT, 0600);
	if (mfd >= 0 && ftruncate(mfd, 4096) == 0)
		mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0);

	pthread_t th;
	if (strcmp(mode, "futex") == 0)
		pthread_create(&th, NULL, futex_thread, NULL);
	if (strcmp(mode, "chatter") == 0)
		pthread_create(&th, NULL, chatter_thread, NULL);
	if (strcmp(mode, "churn") == 0)
		pthread_create(&th, NULL, churn_thread, NULL);

	char p[512], tmp[512], buf[128];
	snprintf(p, sizeof p, "%s/victim.addr", EV);
	FILE *f = fopen(p, "w");
	if (f) {
		fprintf(f, "%p %p\n", (void *)secret_buf, (void *)&flag_word);
		fclose(f);
	}
	snprintf(tmp, sizeof tmp, "%s/victim.pid.tmp", EV);
	snprintf(p, sizeof p, "%s/victim.pid", EV);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int n = snprintf(buf, sizeof buf, "%d\n", getpid());
	if (fd >= 0) {
		if (write(fd, buf, n) < 0) {}
		close(fd);
		rename(tmp, p);
	}

	for (int i = 0; i < 60 * 200; i++) {
		if (flag_word != 0x5a5a5a5a) {
			touch("victim.mem_modified");
			flag_word = 0x5a5a5a5a;
		}
		usleep(5000);
	}
	return 0;
}
