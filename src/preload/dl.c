/* Loading code: only libraries the policy lets the program read.  A name
 * without a slash is looked for along the caller's own search list
 * (RPATH, LD_LIBRARY_PATH, RUNPATH, system directories): every file of
 * that name there must be readable, whichever of them the loader takes. */
#include "preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int search_ok(const char *op, const char *file, const void *caller)
{
	Dl_info info;
	void *lm = NULL;
	if (!dladdr1(caller, &info, &lm, RTLD_DL_LINKMAP) || !lm)
		lm = RTLD_DEFAULT;
	Dl_serinfo size;
	if (dlinfo(lm, RTLD_DI_SERINFOSIZE, &size) != 0)
		return 0;
	Dl_serinfo *si = malloc(size.dls_size);
	if (!si)
		return 0;
	memcpy(si, &size, sizeof(size));
	int ok = 1;
	if (dlinfo(lm, RTLD_DI_SERINFO, si) == 0) {
		for (unsigned i = 0; ok && i < si->dls_cnt; i++) {
			char cand[PATH_MAX];
			const char *dir = si->dls_serpath[i].dls_name;
			if (strlen(dir) + strlen(file) + 2 > sizeof(cand))
				continue;
			strcpy(cand, dir);
			strcat(cand, "/");
			strcat(cand, file);
			if (sl_sys(SYS_faccessat, AT_FDCWD, (long)cand, F_OK, 0, 0, 0) == 0 &&
			    sl_check_at(op, AT_FDCWD, cand, 0, SL_READ) != 0)
				ok = 0;
		}
	}
	free(si);
	return ok;
}

static int dl_ok(const char *op, const char *file, const void *caller)
{
	sl_ensure();
	if (!file)
		return 1;	/* the program itself */
	if (strchr(file, '/'))
		return sl_check_at(op, AT_FDCWD, file, 0, SL_READ) == 0;
	void *h = REAL(dlopen)(file, RTLD_LAZY | RTLD_NOLOAD);
	if (h) {
		dlclose(h);
		return 1;	/* loaded already */
	}
	return search_ok(op, file, caller);
}

SL_EXPORT void *dlopen(const char *file, int mode)
{
	if (!dl_ok("dlopen", file, __builtin_return_address(0)))
		return NULL;
	return REAL(dlopen)(file, mode);
}

SL_EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	if (!dl_ok("dlmopen", file, __builtin_return_address(0)))
		return NULL;
	return REAL(dlmopen)(lmid, file, mode);
}
