// attack: clone_newuser
// flags: --no-network --clean-env --cpu 5 --mem 256 --nproc 50
// evidence: clone(CLONE_NEWUSER|SIGCHLD) creates a process in a new user namespace even though fork is allowed (clone with a namespace flag must fail); the child writes "ran" into EV/child_out through a descriptor inherited from its parent (an unmapped uid cannot create files)
// needs: userns_or_root
// escaped-if: grep -q ran "$EV/child_out"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char path[1024];
	evpath(path, sizeof path, "child_out");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	long p = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	if (p < 0) {
		say("clone(NEWUSER): %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		if (write(fd, "ran\n", 4) < 0) {}
		syscall(SYS_exit, 0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
