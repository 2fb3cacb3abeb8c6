/* New programs in new processes: posix_spawn, popen, system.  They need
 * both "fork 1" and "exec 1".  libc's popen and system spawn through its
 * internal posix_spawn with the visible environ, which no longer has the
 * policy: here they spawn with the environment of env.c instead. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "env.h"

extern char **environ;

int sl_spawn_allowed(const char *op)
{
	sl_ensure();
	if (sl.fork && sl.exec)
		return 1;
	sl_say(op, NULL, sl.fork ? "exec 0" : "fork 0");
	return 0;
}

static int spawn(const char *op, pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct sl_env env;
	if (!sl_spawn_allowed(op))
		return EPERM;
	if (sl_check_at(op, AT_FDCWD, path, 0, SL_READ) != 0 || sl_env_build(&env, envp) != 0)
		return errno;
	int r = REAL(posix_spawn)(pid, path, fa, attr, argv, env.v);
	sl_env_free(&env);
	return r;
}

SL_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn("posix_spawn", pid, path, fa, attr, argv, envp);
}

struct spawnp {
	pid_t *pid;
	const posix_spawn_file_actions_t *fa;
	const posix_spawnattr_t *attr;
	char *const *argv, *const *envp;
	int r;
};

/* a candidate of the PATH search: the first executable one is spawned */
static int spawn_one(const char *cand, void *arg)
{
	struct spawnp *x = arg;
	if (sl_sys(SYS_faccessat, AT_FDCWD, (long)cand, X_OK, 0, 0, 0) != 0)
		return 0;
	x->r = spawn("posix_spawnp", x->pid, cand, x->fa, x->attr, x->argv, x->envp);
	return 1;
}

/* The first executable file along PATH: the one posix_spawnp would run. */
SL_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	if (!sl_spawn_allowed("posix_spawnp"))
		return EPERM;
	if (!sl_opaque(file) || !*file)
		return ENOENT;
	if (strchr(file, '/'))
		return spawn("posix_spawnp", pid, file, fa, attr, argv, envp);
	struct spawnp x = { pid, fa, attr, argv, envp, 0 };
	return sl_path_walk(file, spawn_one, &x) ? x.r : ENOENT;
}

/* Keep the library's descriptor in the child: a close of it is dropped,
 * a replacement of it refused. */
SL_EXPORT int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd)
{
	sl_ensure();
	if (fd >= 0 && fd == sl.preload_fd)
		return 0;
	return REAL(posix_spawn_file_actions_addclose)(fa, fd);
}

SL_EXPORT int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd)
{
	sl_ensure();
	if (newfd >= 0 && newfd == sl.preload_fd && fd != newfd) {
		sl_say("posix_spawn_file_actions_adddup2", NULL, "onto the preload library's descriptor");
		return EPERM;
	}
	return REAL(posix_spawn_file_actions_adddup2)(fa, fd, newfd);
}

/* The child opens the path inside libc, before its exec, where no hook
 * sees it: judged here as an open (from the caller's working directory; a
 * posix_spawn_file_actions_addchdir_np before it is not followed). */
SL_EXPORT int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa, int fd, const char *path,
					       int flags, mode_t mode)
{
	sl_ensure();
	if (fd >= 0 && fd == sl.preload_fd) {
		sl_say("posix_spawn_file_actions_addopen", NULL, "onto the preload library's descriptor");
		return EPERM;
	}
	if (sl_opaque(path) &&
	    sl_check_at("posix_spawn_file_actions_addopen", AT_FDCWD, path, sl_open_flags(flags),
			sl_open_access(flags)) != 0)
		return errno;
	return REAL(posix_spawn_file_actions_addopen)(fa, fd, path, flags, mode);
}

SL_EXPORT int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *fa, int from)
{
	sl_ensure();
	int keep = sl.preload_fd;
	if (keep < 0 || from > keep)
		return REAL(posix_spawn_file_actions_addclosefrom_np)(fa, from);
	for (int fd = from; fd < keep; fd++) {
		int r = REAL(posix_spawn_file_actions_addclose)(fa, fd);
		if (r)
			return r;
	}
	return REAL(posix_spawn_file_actions_addclosefrom_np)(fa, keep + 1);
}

/* system(): the shell with SIGINT and SIGQUIT ignored and SIGCHLD blocked
 * in the caller while it runs, as POSIX has it. */
SL_EXPORT int system(const char *cmd)
{
	sl_ensure();
	if (!cmd)
		return sl.fork && sl.exec;
	if (!sl_spawn_allowed("system")) {
		errno = EPERM;
		return -1;
	}
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	sigset_t chld, old, dfl;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	sigprocmask(SIG_BLOCK, &chld, &old);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigemptyset(&dfl);
	if (oint.sa_handler != SIG_IGN)
		sigaddset(&dfl, SIGINT);
	if (oquit.sa_handler != SIG_IGN)
		sigaddset(&dfl, SIGQUIT);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setsigmask(&attr, &old);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	pid_t pid;
	int status = -1;
	int r = spawn("system", &pid, "/bin/sh", NULL, &attr, argv, environ);
	if (r == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		status = 127 << 8;
	}
	posix_spawnattr_destroy(&attr);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

/* popen's worker, exported by glibc, on a FILE the caller laid out: it
 * starts /bin/sh with the visible environment (no policy: the child would
 * refuse everything), so it is judged as popen and otherwise left to libc. */
FILE *_IO_proc_open(FILE *fp, const char *cmd, const char *mode);
SL_EXPORT FILE *_IO_proc_open(FILE *fp, const char *cmd, const char *mode)
{
	if (!sl_spawn_allowed("_IO_proc_open")) {
		errno = EPERM;
		return NULL;
	}
	return REAL(_IO_proc_open)(fp, cmd, mode);
}

/* popen's children, for pclose */
#define MAXPOPEN 64
static struct {
	FILE *f;
	pid_t pid;
} opened[MAXPOPEN];
static pthread_mutex_t popen_lock = PTHREAD_MUTEX_INITIALIZER;

SL_EXPORT FILE *popen(const char *cmd, const char *mode)
{
	if (!sl_spawn_allowed("popen")) {
		errno = EPERM;
		return NULL;
	}
	int reading = mode && mode[0] == 'r';
	if (!mode || (mode[0] != 'r' && mode[0] != 'w')) {
		errno = EINVAL;
		return NULL;
	}
	int cloexec = strchr(mode, 'e') != NULL;
	int slot = -1;
	pthread_mutex_lock(&popen_lock);
	for (int i = 0; i < MAXPOPEN && slot < 0; i++)
		if (!opened[i].f)
			slot = i;
	pthread_mutex_unlock(&popen_lock);
	if (slot < 0) {
		errno = EMFILE;
		return NULL;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return NULL;
	int mine = reading ? p[0] : p[1], theirs = reading ? p[1] : p[0];
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, theirs, reading ? 1 : 0);
	pthread_mutex_lock(&popen_lock);
	/* POSIX: a child does not keep the other popen streams open */
	for (int i = 0; i < MAXPOPEN; i++)
		if (opened[i].f)
			posix_spawn_file_actions_addclose(&fa, fileno(opened[i].f));
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	pid_t pid;
	int r = spawn("popen", &pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(theirs);
	FILE *f = NULL;
	if (r == 0 && (f = fdopen(mine, reading ? "r" : "w"))) {
		if (!cloexec)
			fcntl(mine, F_SETFD, 0);
		int i = 0;
		while (i < MAXPOPEN && opened[i].f)
			i++;
		if (i < MAXPOPEN) {
			opened[i].f = f, opened[i].pid = pid;
		} else {
			/* taken meanwhile by another thread's popen */
			fclose(f);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			f = NULL;
			errno = EMFILE;
		}
	} else {
		close(mine);
		if (r)
			errno = r;
	}
	pthread_mutex_unlock(&popen_lock);
	return f;
}

SL_EXPORT int pclose(FILE *f)
{
	pid_t pid = -1;
	pthread_mutex_lock(&popen_lock);
	for (int i = 0; i < MAXPOPEN; i++)
		if (f && opened[i].f == f) {
			pid = opened[i].pid;
			opened[i].f = NULL;
		}
	pthread_mutex_unlock(&popen_lock);
	sl_ensure();
	if (pid < 0)
		return REAL(pclose)(f);
	fclose(f);
	int status;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	return w < 0 ? -1 : status;
}
