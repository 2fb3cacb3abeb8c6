/* LD_PRELOAD payload for env_ld_preload: leaves EV/preload_ran when loaded
 * into the attack program (argv[1] = EV), and does nothing elsewhere. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void init(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc < 2 || !argv || !argv[0] || !strstr(argv[0], "env_ld_preload"))
		return;
	char p[1024];
	snprintf(p, sizeof p, "%s/preload_ran", argv[1]);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0)
		close(fd);
}
