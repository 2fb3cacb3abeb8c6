// attack: clone_raw
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the raw clone syscall with flags=SIGCHLD (no CLONE_THREAD) creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	long p = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (p < 0) {
		say("clone: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		canary("child_ran", "clone\n");
		syscall(SYS_exit, 0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
