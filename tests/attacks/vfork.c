// attack: vfork
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: vfork() creates a new process under --no-fork; the child leaves canary child_ran
// escaped-if: ev child_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	static char path[1024];
	evpath(path, sizeof path, "child_ran");
	pid_t p = vfork();
	if (p < 0) {
		say("vfork: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		int fd = open(path, O_WRONLY | O_CREAT, 0666);
		(void)fd;
		_exit(0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
