/* The environment an allowed exec passes on: the program's, with the
 * layer's two variables put back as the layer got them, so that the new
 * program loads it again under the same policy.  No allocation (this runs
 * in vfork children): the caller's stack, or a mapping for huge ones. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "env.h"

static int starts(const char *s, const char *var)
{
	size_t l = strlen(var);
	return !strncmp(s, var, l) && s[l] == '=';
}

static void put_fd_path(char *buf, size_t cap, int fd, const char *rest)
{
	char digits[12];
	int n = 0;
	size_t at = 0;
	const char *head = "LD_PRELOAD=/proc/self/fd/";
	at = strlen(head);
	memcpy(buf, head, at);
	do
		digits[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) && n < 11);
	while (n)
		buf[at++] = digits[--n];
	buf[at] = 0;
	if (rest && at + strlen(rest) < cap)
		strcpy(buf + at, rest);
}

/* Is the library still where LD_PRELOAD says?  A program may have closed or
 * replaced its descriptor; then a new memfd holds the same bytes. */
static const char *preload_var(struct sl_env *env)
{
	struct stat st;
	if (!sl.preload_path)
		return sl.env_preload;
	if (sl.preload_fd >= 0) {
		/* it must survive the exec */
		long fl = sl_sys(SYS_fcntl, sl.preload_fd, F_GETFD, 0, 0, 0, 0);
		if (fl > 0 && (fl & FD_CLOEXEC))
			sl_sys(SYS_fcntl, sl.preload_fd, F_SETFD, fl & ~FD_CLOEXEC, 0, 0, 0);
	}
	if (sl_sys(SYS_newfstatat, AT_FDCWD, (long)sl.preload_path, (long)&st, 0, 0, 0) == 0 &&
	    st.st_dev == sl.preload_dev && st.st_ino == sl.preload_ino)
		return sl.env_preload;
	if (!sl.image)
		return NULL;
	int fd = (int)sl_sys(SYS_memfd_create, (long)"sandlock-preload", 0, 0, 0, 0, 0);
	if (fd < 0)
		return NULL;
	for (size_t off = 0; off < sl.image_len;) {
		long w = sl_sys(SYS_write, fd, (long)((const char *)sl.image + off),
				(long)(sl.image_len - off), 0, 0, 0);
		if (w <= 0) {
			sl_sys(SYS_close, fd, 0, 0, 0, 0, 0);
			return NULL;
		}
		off += (size_t)w;
	}
	const char *rest = strpbrk(sl.env_preload + strlen("LD_PRELOAD="), ": ");
	put_fd_path(env->preload, sizeof(env->preload), fd, rest);
	env->made_fd = fd;
	return env->preload;
}

int sl_env_build(struct sl_env *env, char *const envp[])
{
	size_t n = 0;
	env->map = NULL;
	env->map_len = 0;
	env->made_fd = -1;
	const char *pre = preload_var(env);
	if (sl.env_preload && !pre) {
		sl_say("exec", NULL, "the preload library is no longer reachable");
		errno = EPERM;
		return -1;
	}
	if (envp)
		while (envp[n])
			n++;
	char **v = env->small;
	if (n + 3 > SL_ENV_SMALL) {
		env->map_len = (n + 3) * sizeof(char *);
		v = mmap(NULL, env->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (v == MAP_FAILED) {
			errno = E2BIG;
			return -1;
		}
		env->map = v;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!starts(envp[i], "LD_PRELOAD") && !starts(envp[i], "SANDLOCK_GUARD_POLICY"))
			v[k++] = envp[i];
	if (pre)
		v[k++] = (char *)pre;
	if (sl.env_policy)
		v[k++] = sl.env_policy;
	v[k] = NULL;
	env->v = v;
	return 0;
}

void sl_env_free(struct sl_env *env)
{
	int saved = errno;
	if (env->map)
		munmap(env->map, env->map_len);
	if (env->made_fd >= 0)
		sl_sys(SYS_close, env->made_fd, 0, 0, 0, 0, 0);
	errno = saved;
}
