// attack: symlink_create
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: a symlink EV/link (to /etc/passwd) is created
// escaped-if: test -L "$EV/link"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char p[1024];
	evpath(p, sizeof p, "link");
	if (syscall(SYS_symlinkat, "/etc/passwd", AT_FDCWD, p)) {
		say("symlinkat: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
