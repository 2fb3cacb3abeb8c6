/* One attack per run: attack ACTION ARGS...  Evidence goes to stdout (a
 * secret's bytes, a directory's names) or to files (created outside, a
 * marker written by a child); tests/guards/preload.py judges it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int dump_fd(int fd)
{
	char buf[4096];
	ssize_t n;
	if (fd < 0) {
		printf("refused: %s\n", strerror(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

static int dump_file(FILE *f)
{
	char buf[4096];
	size_t n;
	if (!f) {
		printf("refused: %s\n", strerror(errno));
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	if (write(fd, "child\n", 6) != 6)
		return 1;
	return close(fd);
}

static int marker_child(void *arg)
{
	_exit(touch(arg));
}

static int report(int r, const char *what)
{
	if (r < 0)
		printf("refused %s: %s\n", what, strerror(errno));
	return r < 0;
}

static int wait_child(pid_t pid)
{
	int st;
	if (pid < 0)
		return report(-1, "process");
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: attack ACTION ARG...\n");
		return 2;
	}
	const char *a = argv[1], *p = argv[2];
	const char *q = argc > 3 ? argv[3] : NULL;
	int r = 0;
	if (!strcmp(a, "open"))
		r = dump_fd(open(p, O_RDONLY));
	else if (!strcmp(a, "open64"))
		r = dump_fd(open64(p, O_RDONLY));
	else if (!strcmp(a, "openat")) {
		int root = open("/", O_PATH | O_DIRECTORY);
		r = dump_fd(openat(root, p + 1, O_RDONLY));
	} else if (!strcmp(a, "openat64"))
		r = dump_fd(openat64(AT_FDCWD, p, O_RDONLY));
	else if (!strcmp(a, "fopen"))
		r = dump_file(fopen(p, "r"));
	else if (!strcmp(a, "fopen64"))
		r = dump_file(fopen64(p, "r"));
	else if (!strcmp(a, "freopen"))
		r = dump_file(freopen(p, "r", stdin));
	else if (!strcmp(a, "creat")) {
		int fd = creat(p, 0644);
		r = report(fd, "creat") || report((int)write(fd, "pwned\n", 6), "write");
	} else if (!strcmp(a, "fopen-write")) {
		FILE *f = fopen(p, "w");
		r = !f ? report(-1, "fopen") : (fputs("pwned\n", f), fclose(f));
	} else if (!strcmp(a, "stat")) {
		struct stat st;
		r = report(stat(p, &st), "stat");
		if (!r)
			printf("exists size=%lld\n", (long long)st.st_size);
	} else if (!strcmp(a, "access")) {
		r = report(access(p, F_OK), "access");
		if (!r)
			printf("exists\n");
	} else if (!strcmp(a, "opendir")) {
		DIR *d = opendir(p);
		struct dirent *e;
		if (!d)
			return report(-1, "opendir");
		while ((e = readdir(d)))
			printf("name %s\n", e->d_name);
		closedir(d);
	} else if (!strcmp(a, "syscall-openat"))
		r = dump_fd((int)syscall(SYS_openat, AT_FDCWD, p, O_RDONLY, 0));
	else if (!strcmp(a, "rename"))
		r = report(rename(p, q), "rename");
	else if (!strcmp(a, "symlink")) {
		/* a name in the working directory for the secret, then read it */
		r = report(symlink(q, p), "symlink");
		if (!r)
			r = dump_fd(open(p, O_RDONLY));
	} else if (!strcmp(a, "symlink-create")) {
		/* a dangling link: O_CREAT follows it and creates its target */
		r = report(symlink(q, p), "symlink");
		if (!r) {
			int fd = open(p, O_WRONLY | O_CREAT, 0644);
			r = report(fd, "open") || report((int)write(fd, "pwned\n", 6), "write");
		}
	} else if (!strcmp(a, "execve")) {
		char *v[] = { "sh", "-c", (char *)q, NULL };
		r = report(execve(p, v, environ), "execve");
	} else if (!strcmp(a, "execve-noenv")) {
		char *v[] = { (char *)p, (char *)q, NULL };
		char *e[] = { NULL };
		r = report(execve(p, v, e), "execve");
	} else if (!strcmp(a, "execvp")) {
		char *v[] = { "sh", "-c", (char *)q, NULL };
		r = report(execvp(p, v), "execvp");
	} else if (!strcmp(a, "close-exec")) {
		/* the library's descriptor gone before the exec */
		close(atoi(argv[4]));
		char *v[] = { (char *)p, (char *)q, NULL };
		r = report(execv(p, v), "execv");
	} else if (!strcmp(a, "system")) {
		int st = system(p);
		r = st == -1 ? report(-1, "system") : 0;
	} else if (!strcmp(a, "popen")) {
		FILE *f = popen(p, "r");
		if (!f)
			return report(-1, "popen");
		char buf[256];
		while (fgets(buf, sizeof(buf), f))
			fputs(buf, stdout);
		pclose(f);
	} else if (!strcmp(a, "posix_spawn")) {
		char *v[] = { "sh", "-c", (char *)q, NULL };
		pid_t pid;
		int e = posix_spawn(&pid, p, NULL, NULL, v, environ);
		if (e) {
			errno = e;
			return report(-1, "posix_spawn");
		}
		r = wait_child(pid);
	} else if (!strcmp(a, "fork")) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(touch(p));
		r = wait_child(pid);
	} else if (!strcmp(a, "vfork")) {
		pid_t pid = vfork();
		if (pid == 0)
			_exit(touch(p));
		r = wait_child(pid);
	} else if (!strcmp(a, "clone")) {
		static char stack[1 << 16];
		pid_t pid = clone(marker_child, stack + sizeof(stack), SIGCHLD, (void *)p);
		r = wait_child(pid);
	} else if (!strcmp(a, "connect")) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(p)),
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		if (s < 0)
			return report(-1, "socket");
		r = report(connect(s, (struct sockaddr *)&sa, sizeof(sa)), "connect");
		if (!r && write(s, "hello\n", 6) != 6)
			r = 1;
	} else if (!strcmp(a, "dlopen")) {
		void *h = dlopen(p, RTLD_NOW);
		if (!h) {
			printf("refused dlopen: %s\n", dlerror());
			return 1;
		}
		const char *(*token)(void) = (const char *(*)(void))dlsym(h, "evil_token");
		printf("%s\n", token ? token() : "no token");
	} else {
		fprintf(stderr, "attack: unknown action %s\n", a);
		return 2;
	}
	fflush(stdout);
	return r;
}
