/* exec in all its spellings.  Refused under "exec 0"; allowed, the program
 * must be readable under the policy and gets the layer again (env.c).
 * The path searches of execvp & co are done here: libc's own would call
 * its internal execve, which is not ours. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"

extern char **environ;

int sl_execve_checked(const char *op, int dirfd, const char *path, char *const argv[],
		      char *const envp[], int atflags, int fd)
{
	struct sl_env env;
	sl_ensure();
	if (!sl.exec)
		return sl_refuse(op, fd >= 0 || !path ? NULL : path, EPERM);
	int bad = fd >= 0 ? sl_check_fd(op, fd, SL_READ)
			  : sl_check_at(op, dirfd, path,
					(atflags & AT_SYMLINK_NOFOLLOW ? SL_NOFOLLOW : 0) |
						(atflags & AT_EMPTY_PATH ? SL_EMPTY : 0),
					SL_READ);
	if (bad || sl_env_build(&env, envp) != 0)
		return -1;
	if (fd >= 0)
		REAL(fexecve)(fd, argv, env.v);
	else if (dirfd != AT_FDCWD || atflags)
		REAL(execveat)(dirfd, path, argv, env.v, atflags);
	else
		REAL(execve)(path, argv, env.v);
	sl_env_free(&env);
	return -1;
}

/* A file that is not a binary nor starts with #!: the shell runs it, as
 * execvp does. */
static void as_script(const char *op, const char *path, char *const argv[], char *const envp[])
{
	size_t n = 0;
	while (argv[n])
		n++;
	if (n > 4096)
		return;
	char *v[n + 3];
	v[0] = (char *)"/bin/sh";
	v[1] = (char *)path;
	for (size_t i = 1; i <= n; i++)
		v[i + 1] = argv[i];
	if (!n)
		v[2] = NULL;
	sl_execve_checked(op, AT_FDCWD, "/bin/sh", v, envp, 0, -1);
}

int sl_path_walk(const char *file, int (*try_one)(const char *cand, void *arg), void *arg)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	size_t flen = strlen(file);
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char cand[PATH_MAX];
		size_t dlen = (size_t)(end - p);
		if (dlen + flen + 2 <= sizeof(cand)) {
			memcpy(cand, p, dlen);
			if (dlen)
				cand[dlen++] = '/';
			memcpy(cand + dlen, file, flen + 1);
			int r = try_one(cand, arg);
			if (r)
				return r;
		}
		if (!*end)
			break;
		p = end;
	}
	return 0;
}

struct search {
	const char *op;
	char *const *argv, *const *envp;
	int eacces;
};

/* One candidate of execvp's search: 0 to go on to the next (errno says
 * why this one failed), 1 to stop with its errno. */
static int exec_one(const char *cand, void *arg)
{
	struct search *x = arg;
	sl_execve_checked(x->op, AT_FDCWD, cand, x->argv, x->envp, 0, -1);
	if (errno == ENOEXEC)
		as_script(x->op, cand, x->argv, x->envp);
	switch (errno) {
	case EACCES:
		x->eacces = 1;
		/* fall through */
	case ENOENT:
	case ENOTDIR:
	case ESTALE:
	case ENODEV:
	case ETIMEDOUT:
		return 0;
	default:
		return 1;
	}
}

int sl_exec_search(const char *op, const char *file, char *const argv[], char *const envp[])
{
	sl_ensure();
	if (!sl.exec)
		return sl_refuse(op, file, EPERM);
	if (!file || !*file) {
		errno = ENOENT;
		return -1;
	}
	struct search x = { op, argv, envp, 0 };
	if (strchr(file, '/')) {
		exec_one(file, &x);
		return -1;
	}
	if (!sl_path_walk(file, exec_one, &x))
		errno = x.eacces ? EACCES : ENOENT;
	return -1;
}

SL_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	return sl_execve_checked("execve", AT_FDCWD, path, argv, envp, 0, -1);
}

SL_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	return sl_execve_checked("execveat", dirfd, path, argv, envp, flags, -1);
}

SL_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	return sl_execve_checked("fexecve", AT_FDCWD, NULL, argv, envp, 0, fd < 0 ? INT_MAX : fd);
}

SL_EXPORT int execv(const char *path, char *const argv[])
{
	return sl_execve_checked("execv", AT_FDCWD, path, argv, environ, 0, -1);
}

SL_EXPORT int execvp(const char *file, char *const argv[])
{
	return sl_exec_search("execvp", file, argv, environ);
}

SL_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return sl_exec_search("execvpe", file, argv, envp);
}

/* the list forms: argv on the stack (no allocation), envp after the NULL for execle */
#define ARGS(first, envp_out)                                          \
	size_t n = 1;                                                  \
	va_list ap;                                                    \
	va_start(ap, first);                                           \
	while (va_arg(ap, char *))                                     \
		n++;                                                   \
	va_end(ap);                                                    \
	if (n > 65536) {                                               \
		errno = E2BIG;                                         \
		return -1;                                             \
	}                                                              \
	char *argv[n + 1];                                             \
	argv[0] = (char *)(first);                                     \
	va_start(ap, first);                                           \
	for (size_t i = 1; i <= n; i++)                                \
		argv[i] = va_arg(ap, char *);                          \
	envp_out;                                                      \
	va_end(ap)

SL_EXPORT int execl(const char *path, const char *arg, ...)
{
	ARGS(arg, (void)0);
	return sl_execve_checked("execl", AT_FDCWD, path, argv, environ, 0, -1);
}

SL_EXPORT int execlp(const char *file, const char *arg, ...)
{
	ARGS(arg, (void)0);
	return sl_exec_search("execlp", file, argv, environ);
}

SL_EXPORT int execle(const char *path, const char *arg, ...)
{
	char *const *envp;
	ARGS(arg, envp = va_arg(ap, char *const *));
	return sl_execve_checked("execle", AT_FDCWD, path, argv, envp, 0, -1);
}
