// attack: chroot
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: userns_or_root
// evidence: after chroot(EV/newroot), creating "/through_chroot" lands in EV/newroot (root directory changed)
// escaped-if: test -e "$EV/newroot/through_chroot"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char r[1024];
	evpath(r, sizeof r, "newroot");
	mkdir(r, 0777);
	if (chroot(r) != 0 && errno == EPERM) {
		enter_mount_ns();
		if (chroot(r)) {
			say("chroot: %s\n", strerror(errno));
			return 1;
		}
	}
	if (chdir("/")) {}
	say("created in new root: %d\n", open("/through_chroot", O_WRONLY | O_CREAT, 0666));
	return 0;
}
