// attack: clone3
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: clone3() with flags=0, exit_signal=SIGCHLD creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

#include <linux/sched.h>
int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct clone_args ca;
	memset(&ca, 0, sizeof ca);
	ca.exit_signal = SIGCHLD;
	long p = syscall(435 /* clone3 */, &ca, sizeof ca);
	if (p < 0) {
		say("clone3: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		canary("child_ran", "clone3\n");
		syscall(SYS_exit, 0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
