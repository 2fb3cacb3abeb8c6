// attack: system
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: system() creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "echo system > %s/child_ran", EV);
	int r = system(cmd);
	say("system: %d\n", r);
	return 0;
}
