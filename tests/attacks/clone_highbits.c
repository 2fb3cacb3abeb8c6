// attack: clone_highbits
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the raw clone syscall with flags = SIGCHLD | 0x00010000_00000000 | 0xdead0000_00000000 (CLONE_THREAD's bit and junk in the upper half, which the kernel ignores) creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	unsigned long flags = SIGCHLD | ((unsigned long)CLONE_THREAD << 32) | 0xdead000000000000UL;
	long p = syscall(SYS_clone, flags, 0, 0, 0, 0);
	if (p < 0) {
		say("clone: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		canary("child_ran", "clone highbits\n");
		syscall(SYS_exit, 0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
