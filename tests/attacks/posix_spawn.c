// attack: posix_spawn
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: posix_spawn(/bin/sh) creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

#include <spawn.h>
extern char **environ;
int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "echo spawned > %s/child_ran", EV);
	char *av[] = { "sh", "-c", cmd, NULL };
	pid_t p;
	int r = posix_spawn(&p, "/bin/sh", NULL, NULL, av, environ);
	if (r) {
		say("posix_spawn: %s\n", strerror(r));
		return 1;
	}
	waitpid(p, NULL, 0);
	return 0;
}
