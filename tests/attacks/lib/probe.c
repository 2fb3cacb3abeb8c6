/* probe: does this machine offer what an attack needs for its bare run?
 *   probe NAME    exit 0 = available; prints a reason otherwise
 * NAME: x32 ia32 io_uring memfd_secret ipv6 userns tiocsti modules membarrier_global
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/membarrier.h>

static int in_child(int (*fn)(void))
{
	pid_t p = fork();
	if (p == 0)
		_exit(fn());
	int st;
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

static int ia32(void)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory", "r8", "r9", "r10", "r11");
	return r == getpid() ? 0 : 1;
}

static int userns(void)
{
	return unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	const char *n = argv[1];
	if (!strcmp(n, "x32")) {
		long r = syscall(0x40000000 | SYS_getpid);
		if (r == getpid())
			return 0;
		printf("kernel has no x32 ABI (CONFIG_X86_X32_ABI)\n");
		return 1;
	}
	if (!strcmp(n, "ia32")) {
		int r = in_child(ia32);
		if (r == 0)
			return 0;
		printf("int 0x80 unavailable here (ia32 emulation off; child status %d)\n", r);
		return 1;
	}
	if (!strcmp(n, "io_uring")) {
		char p[512] = { 0 };
		long fd = syscall(425, 4, p);
		if (fd >= 0)
			return 0;
		printf("io_uring_setup: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(n, "memfd_secret")) {
		long fd = syscall(447, 0);
		if (fd >= 0)
			return 0;
		printf("memfd_secret: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(n, "ipv6")) {
		int s = socket(AF_INET6, SOCK_STREAM, 0);
		struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
		if (s >= 0 && bind(s, (void *)&a, sizeof a) == 0)
			return 0;
		printf("no IPv6 loopback: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(n, "userns")) {
		int r = in_child(userns);
		if (r == 0)
			return 0;
		printf("unprivileged user namespaces unavailable\n");
		return 1;
	}
	if (!strcmp(n, "tiocsti")) {
		if (geteuid() == 0)
			return 0;
		FILE *f = fopen("/proc/sys/dev/tty/legacy_tiocsti", "r");
		int v = 1;
		if (f) {
			if (fscanf(f, "%d", &v) != 1)
				v = 1;
			fclose(f);
		}
		if (v)
			return 0;
		printf("dev.tty.legacy_tiocsti=0: TIOCSTI needs CAP_SYS_ADMIN\n");
		return 1;
	}
	if (!strcmp(n, "modules")) {
		if (access("/proc/modules", F_OK) == 0)
			return 0;
		printf("kernel built without loadable modules (no /proc/modules)\n");
		return 1;
	}
	if (!strcmp(n, "membarrier_global")) {
		long r = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
		if (r >= 0 && (r & MEMBARRIER_CMD_GLOBAL))
			return 0;
		printf("membarrier GLOBAL unsupported\n");
		return 1;
	}
	printf("unknown probe %s\n", n);
	return 2;
}
