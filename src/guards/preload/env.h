/* env.c: the environment handed to an allowed exec */
#ifndef SL_ENV_H
#define SL_ENV_H
#include <limits.h>
#include <stddef.h>

#define SL_ENV_SMALL 256

struct sl_env {
	char **v;
	char *small[SL_ENV_SMALL];
	void *map;
	size_t map_len;
	int made_fd;	/* a memfd made for this exec, closed if it fails */
	char preload[PATH_MAX + 64];
};

int sl_env_build(struct sl_env *env, char *const envp[]);
void sl_env_free(struct sl_env *env);
#endif
