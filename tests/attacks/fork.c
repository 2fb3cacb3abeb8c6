// attack: fork
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: fork() creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t p = fork();
	if (p < 0) {
		say("fork: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		canary("child_ran", "fork\n");
		_exit(0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
