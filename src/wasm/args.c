/* What the guest is told of its command line and environment. */
#include "wasi.h"

#include <string.h>

static uint32_t sizes(struct wasi *w, char **v, int n, uint32_t count, uint32_t size)
{
	uint8_t *c = wasi_mem(w, count, 4), *s = wasi_mem(w, size, 4);
	if (!c || !s)
		return W_EFAULT;
	uint64_t total = 0;
	for (int i = 0; i < n; i++)
		total += strlen(v[i]) + 1;
	if (total > UINT32_MAX)
		return W_EOVERFLOW;
	uint32_t nn = (uint32_t)n, t = (uint32_t)total;
	memcpy(c, &nn, 4);
	memcpy(s, &t, 4);
	return W_ESUCCESS;
}

/* the pointers at ptrs, the strings one after the other at buf */
static uint32_t get(struct wasi *w, char **v, int n, uint32_t ptrs, uint32_t buf)
{
	uint64_t total = 0;
	for (int i = 0; i < n; i++)
		total += strlen(v[i]) + 1;
	uint8_t *p = wasi_mem(w, ptrs, (uint64_t)n * 4), *b = wasi_mem(w, buf, total);
	if (!p || !b)
		return W_EFAULT;
	uint32_t at = buf;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(v[i]) + 1;
		memcpy(p + 4 * (size_t)i, &at, 4);
		memcpy(w->mem + at, v[i], l);
		at += (uint32_t)l;
	}
	return W_ESUCCESS;
}

uint32_t wasi_args_sizes_get(struct wasi *w, uint32_t argc, uint32_t size)
{
	return sizes(w, w->argv, w->argc, argc, size);
}

uint32_t wasi_args_get(struct wasi *w, uint32_t argv, uint32_t buf)
{
	return get(w, w->argv, w->argc, argv, buf);
}

uint32_t wasi_environ_sizes_get(struct wasi *w, uint32_t envc, uint32_t size)
{
	return sizes(w, w->envp, w->envc, envc, size);
}

uint32_t wasi_environ_get(struct wasi *w, uint32_t envp, uint32_t buf)
{
	return get(w, w->envp, w->envc, envp, buf);
}
