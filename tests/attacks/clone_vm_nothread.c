// attack: clone_vm_nothread
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: clone with every thread flag except CLONE_THREAD (CLONE_VM|FS|FILES|SIGHAND|SYSVSEM) creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

#include <sched.h>
static int child(void *a)
{
	(void)a;
	canary("child_ran", "clone without CLONE_THREAD\n");
	return 0;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	static char stack[1 << 16] __attribute__((aligned(16)));
	int p = clone(child, stack + sizeof stack, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_SYSVSEM | SIGCHLD, NULL);
	if (p < 0) {
		say("clone: %s\n", strerror(errno));
		return 1;
	}
	waitpid(p, NULL, __WALL);
	return 0;
}
