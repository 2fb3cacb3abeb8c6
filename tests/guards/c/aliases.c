/* One of libc's names for a hooked action, called through the dynamic
 * linker's lookup, so that one program covers every name and version:
 *
 *   aliases HOW KIND NAME VERSION ARGS...
 *
 * HOW is where the name is looked up: "libc" (dlvsym on libc's own handle,
 * which reaches libc's entry past any interposer), "next"
 * (dlvsym(RTLD_NEXT)), "default" (dlsym(RTLD_DEFAULT), no version) or
 * "linked" (the reference the program was linked with: -DOLD_SPAWN names
 * posix_spawn's old version).  KIND says how to call it; evidence goes to
 * stdout (the secret's bytes, what a shell it started printed), to files
 * (a marker a child wrote, a node made outside) or to the test's listener (a connection, a datagram).
 * "refused: ..." on stdout when the call failed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifdef OLD_SPAWN
/* a reference to the old version, as a program built on an old libc has */
int old_posix_spawn(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
		    char *const[], char *const[]);
__asm__(".symver old_posix_spawn, " OLD_SPAWN);
#endif

static int refused(void)
{
	printf("refused: %s\n", strerror(errno));
	return 1;
}

static int dump_fd(int fd)
{
	char buf[4096];
	ssize_t n;
	if (fd < 0)
		return refused();
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

static int dump_file(FILE *f)
{
	if (!f)
		return refused();
	return dump_fd(dup(fileno(f)));
}

/* the marker a new process writes: raw calls, nothing of libc's that a
 * vfork child must not touch */
static void touch(const char *path)
{
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (syscall(SYS_write, fd, "child\n", 6) != 6)
			syscall(SYS_exit_group, 1);
		syscall(SYS_close, fd);
	}
}

static int child_fn(void *arg)
{
	touch(arg);
	return 0;
}

static int waited(pid_t pid)
{
	if (pid < 0)
		return refused();
	int st;
	waitpid(pid, &st, 0);
	printf("started %d\n", (int)pid);
	return 0;
}

/* socket(2) past libc, for the calls that take one */
static int raw_socket(int type)
{
	return (int)syscall(SYS_socket, AF_INET, type, 0);
}

static struct sockaddr_in local(const char *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(port)),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return sa;
}

static void *lookup(const char *how, const char *name, const char *version)
{
	if (!strcmp(how, "default"))
		return dlsym(RTLD_DEFAULT, name);
	if (!strcmp(how, "next"))
		return dlvsym(RTLD_NEXT, name, version);
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	return libc ? dlvsym(libc, name, version) : NULL;
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: aliases HOW KIND NAME VERSION ARG...\n");
		return 125;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *how = argv[1], *kind = argv[2], *name = argv[3], *ver = argv[4], *arg = argv[5];
	void *f;
#ifdef OLD_SPAWN
	if (!strcmp(how, "linked"))
		f = (void *)old_posix_spawn;
	else
#endif
		f = lookup(how, name, ver);
	if (!f) {
		fprintf(stderr, "aliases: %s@%s not found (%s)\n", name, ver, dlerror());
		return 125;
	}
	/* the spawning kinds run ARG with the shell: its output on our stdout
	 * (a pipe's copied there) is the evidence that a new program ran,
	 * whatever layer it ran under */
	const char *cmd = arg;
	char *sh_argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };

	if (!strcmp(kind, "open"))
		return dump_fd(((int (*)(const char *, int, ...))f)(arg, O_RDONLY));
	if (!strcmp(kind, "openat"))
		return dump_fd(((int (*)(int, const char *, int, ...))f)(AT_FDCWD, arg, O_RDONLY));
	if (!strcmp(kind, "open_2"))
		return dump_fd(((int (*)(const char *, int))f)(arg, O_RDONLY));
	if (!strcmp(kind, "openat_2"))
		return dump_fd(((int (*)(int, const char *, int))f)(AT_FDCWD, arg, O_RDONLY));
	if (!strcmp(kind, "fopen"))
		return dump_file(((FILE * (*)(const char *, const char *)) f)(arg, "r"));
	if (!strcmp(kind, "freopen"))
		return dump_file(((FILE * (*)(const char *, const char *, FILE *)) f)(arg, "r", stdin));
	if (!strcmp(kind, "shm_open"))
		return dump_fd(((int (*)(const char *, int, mode_t))f)(arg, O_RDONLY, 0));
	if (!strcmp(kind, "xmknod")) {
		dev_t dev = 0;
		if (((int (*)(int, const char *, mode_t, dev_t *))f)(0, arg, S_IFIFO | 0644, &dev) != 0)
			return refused();
		return 0;
	}
	if (!strcmp(kind, "xmknodat")) {
		dev_t dev = 0;
		if (((int (*)(int, int, const char *, mode_t, dev_t *))f)(0, AT_FDCWD, arg, S_IFIFO | 0644,
									     &dev) != 0)
			return refused();
		return 0;
	}
	if (!strcmp(kind, "fork")) {
		pid_t pid = ((pid_t(*)(void))f)();
		if (pid == 0) {
			touch(arg);
			_exit(0);
		}
		return waited(pid);
	}
	if (!strcmp(kind, "vfork")) {
		pid_t pid = ((pid_t(*)(void))f)();
		if (pid == 0) {
			touch(arg);
			syscall(SYS_exit, 0);
		}
		return waited(pid);
	}
	if (!strcmp(kind, "clone")) {
		static char stack[65536] __attribute__((aligned(16)));
		return waited(((int (*)(int (*)(void *), void *, int, void *, ...))f)(
			child_fn, stack + sizeof(stack), SIGCHLD, (void *)arg));
	}
	if (!strcmp(kind, "forkpty")) {
		int master;
		pid_t pid = ((pid_t(*)(int *, char *, const void *, const void *))f)(&master, NULL, NULL, NULL);
		if (pid == 0) {
			touch(arg);
			_exit(0);
		}
		return waited(pid);
	}
	if (!strcmp(kind, "daemon")) {
		/* the daemon is the evidence; the caller's process exits in it */
		if (((int (*)(int, int))f)(1, 1) != 0)
			return refused();
		touch(arg);
		return 0;
	}
	if (!strcmp(kind, "posix_spawn") || !strcmp(kind, "posix_spawnp")) {
		pid_t pid;
		int r = ((int (*)(pid_t *, const char *, const void *, const void *, char *const[],
				  char *const[]))f)(&pid, kind[11] ? "sh" : "/bin/sh", NULL, NULL, sh_argv, environ);
		if (r) {
			errno = r;
			return refused();
		}
		return waited(pid);
	}
	if (!strcmp(kind, "spawn_addopen")) {
		/* the child's stdin opened by libc in the child, then cat */
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		int r = ((int (*)(posix_spawn_file_actions_t *, int, const char *, int, mode_t))f)(
			&fa, 0, arg, O_RDONLY, 0);
		if (r) {
			errno = r;
			return refused();
		}
		char *cat_argv[] = { (char *)"cat", NULL };
		pid_t pid;
		r = posix_spawn(&pid, "/bin/cat", &fa, NULL, cat_argv, environ);
		if (r) {
			errno = r;
			return refused();
		}
		return waited(pid);
	}
	if (!strcmp(kind, "system")) {
		int r = ((int (*)(const char *))f)(cmd);
		if (r == -1)
			return refused();
		printf("status %d\n", r);
		return 0;
	}
	if (!strcmp(kind, "popen")) {
		FILE *p = ((FILE * (*)(const char *, const char *)) f)(cmd, "r");
		if (!p)
			return refused();
		dump_fd(dup(fileno(p)));
		pclose(p);
		return 0;
	}
	if (!strcmp(kind, "proc_open")) {
		/* popen's worker on a FILE laid out here, as popen would */
		static long fp_mem[1024];
		FILE *fp = (FILE *)fp_mem;
		fp->_fileno = -1;
		if (!((FILE * (*)(FILE *, const char *, const char *)) f)(fp, cmd, "r"))
			return refused();
		dump_fd(fp->_fileno);
		int st;
		while (wait(&st) > 0)
			;
		return 0;
	}
	if (!strcmp(kind, "connect")) {
		struct sockaddr_in sa = local(arg);
		int s = raw_socket(SOCK_STREAM);
		if (((int (*)(int, const struct sockaddr *, socklen_t))f)(s, (struct sockaddr *)&sa, sizeof(sa)))
			return refused();
		printf("connected\n");
		return 0;
	}
	if (!strcmp(kind, "socket")) {
		struct sockaddr_in sa = local(arg);
		int s = ((int (*)(int, int, int))f)(AF_INET, SOCK_STREAM, 0);
		if (s < 0)
			return refused();
		if (syscall(SYS_connect, s, &sa, sizeof(sa)))
			return refused();
		printf("connected\n");
		return 0;
	}
	if (!strcmp(kind, "sendmmsg")) {
		struct sockaddr_in sa = local(arg);
		int s = raw_socket(SOCK_DGRAM);
		struct iovec iov = { (void *)"datagram", 8 };
		struct mmsghdr m = { .msg_hdr = { .msg_name = &sa, .msg_namelen = sizeof(sa),
						  .msg_iov = &iov, .msg_iovlen = 1 } };
		if (((int (*)(int, struct mmsghdr *, unsigned, int))f)(s, &m, 1, 0) != 1)
			return refused();
		printf("sent\n");
		return 0;
	}
	if (!strcmp(kind, "dlopen") || !strcmp(kind, "dlmopen")) {
		void *h = !strcmp(kind, "dlopen") ? ((void *(*)(const char *, int))f)(arg, RTLD_NOW)
						  : ((void *(*)(Lmid_t, const char *, int))f)(LM_ID_BASE, arg, RTLD_NOW);
		const char *(*token)(void) = h ? (const char *(*)(void))dlsym(h, "evil_token") : NULL;
		if (!token)
			return refused();
		printf("%s\n", token());
		return 0;
	}
	if (!strcmp(kind, "dlsym") || !strcmp(kind, "dlvsym")) {
		/* the lookup itself, looked up: libc's open through it */
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		void *o = !strcmp(kind, "dlsym") ? ((void *(*)(void *, const char *))f)(libc, "__open64")
						 : ((void *(*)(void *, const char *, const char *))f)(
							   libc, "__open64", "GLIBC_2.2.5");
		if (!o)
			return refused();
		return dump_fd(((int (*)(const char *, int, ...))o)(arg, O_RDONLY));
	}
	if (!strcmp(kind, "dlmopen-newlm")) {
		/* a second libc, in a namespace of its own */
		void *h = ((void *(*)(Lmid_t, const char *, int))f)(LM_ID_NEWLM, "libc.so.6", RTLD_NOW);
		if (!h)
			return refused();
		void *o = dlsym(h, "open");
		return o ? dump_fd(((int (*)(const char *, int, ...))o)(arg, O_RDONLY)) : refused();
	}
	fprintf(stderr, "aliases: unknown kind %s\n", kind);
	return 125;
}
