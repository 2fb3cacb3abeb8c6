/* Start-up: the policy read once and taken out of the program's sight,
 * the real functions found, the library's own bytes kept so that a child
 * can be given it again (children stay under the layer). */
#include "preload.h"
#include "cover.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define POLICY_VAR "SANDLOCK_GUARD_POLICY"

struct sl_state sl = { .preload_fd = -1 };
void *sl_real[SLR_COUNT];

static const char *const real_names[SLR_COUNT] = {
#define SL_NAME(n) #n,
	SL_REAL_NAMES(SL_NAME)
#undef SL_NAME
};

extern char **environ;

static char *keep(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = mmap(NULL, la + lb + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

/* The library's first LD_PRELOAD entry: its identity, checked again at
 * each exec, and its bytes (a private mapping outlives the descriptor). */
static void note_library(const char *value)
{
	size_t l = strcspn(value, ": ");
	char *path = keep("", value);
	if (!path || !l)
		return;
	path[l] = 0;
	sl.preload_path = path;
	if (!strncmp(path, "/proc/self/fd/", 14)) {
		char *end;
		long fd = strtol(path + 14, &end, 10);
		if (!*end && end != path + 14 && fd >= 0 && fd < 1 << 20)
			sl.preload_fd = (int)fd;
	}
	struct stat st;
	int fd = (int)sl_sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	if (sl_sys(SYS_fstat, fd, (long)&st, 0, 0, 0, 0) == 0 && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			sl.image = m;
			sl.image_len = (size_t)st.st_size;
			sl.preload_dev = st.st_dev;
			sl.preload_ino = st.st_ino;
		}
	}
	sl_sys(SYS_close, fd, 0, 0, 0, 0, 0);
}

/* Out of environ, and its bytes wiped where the kernel shows them
 * (/proc/self/environ reads the start-up stack). */
static void hide_policy(void)
{
	if (!environ)
		return;
	size_t nl = strlen(POLICY_VAR);
	for (char **e = environ; *e;) {
		if (!strncmp(*e, POLICY_VAR, nl) && (*e)[nl] == '=') {
			memset(*e, 0, strlen(*e));
			char **d = e;
			do
				d[0] = d[1];
			while (*d++);
		} else {
			e++;
		}
	}
}

void sl_init(void)
{
	static int busy;
	if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQ_REL)) {
		/* another thread is in here (before main: rare); wait for it */
		while (!__atomic_load_n(&sl.ready, __ATOMIC_ACQUIRE))
			sl_sys(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
		return;
	}
	/* our dlsym would hand back our own hooks: libc's is called directly,
	 * from here, so that RTLD_NEXT means the definitions after ours */
	sl_find_dlsym();
	void *(*real_dlsym)(void *, const char *) = (void *(*)(void *, const char *))sl_real_dlsym;
	void *(*real_dlvsym)(void *, const char *, const char *) =
		(void *(*)(void *, const char *, const char *))sl_real_dlvsym;
	for (int i = 0; real_dlsym && i < SLR_COUNT; i++)
		sl_real[i] = real_dlsym(RTLD_NEXT, real_names[i]);
	for (unsigned i = 0; real_dlvsym && i < sl_cover_count; i++)
		sl_cover_libc[i] = real_dlvsym(RTLD_NEXT, sl_cover[i].name, sl_cover[i].version);
	const char *policy = getenv(POLICY_VAR);
	const char *preload = getenv("LD_PRELOAD");
	if (policy && sl_policy_parse(policy) == 0) {
		sl.have_policy = 1;
		sl.env_policy = keep(POLICY_VAR "=", policy);
	}
	if (preload) {
		sl.env_preload = keep("LD_PRELOAD=", preload);
		note_library(preload);
	}
	if (!sl.have_policy)
		sl_say("everything", NULL, "no " POLICY_VAR " was given");
	if (sl.fork)
		sl_vfork_real = sl_real[SLR_vfork];
	hide_policy();
	__atomic_store_n(&sl.ready, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void sl_constructor(void)
{
	sl_ensure();
}
