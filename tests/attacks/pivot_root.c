// attack: pivot_root
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: userns_or_root
// evidence: after pivot_root into EV/new (private mount namespace), "/through_pivot" lands in EV/new
// escaped-if: test -e "$EV/new/through_pivot"
// cleanup: umount -l "$EV/new" 2>/dev/null
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char n[1024], o[1100];
	evpath(n, sizeof n, "new");
	snprintf(o, sizeof o, "%s/old", n);
	mkdir(n, 0777);
	mkdir(o, 0777);
	enter_mount_ns();
	if (mount(n, n, NULL, MS_BIND, NULL))
		say("bind: %s\n", strerror(errno));
	if (chdir(n)) {}
	if (syscall(SYS_pivot_root, ".", "old")) {
		say("pivot_root: %s\n", strerror(errno));
		return 1;
	}
	if (chdir("/")) {}
	say("created in pivoted root: %d\n", open("/through_pivot", O_WRONLY | O_CREAT, 0666));
	return 0;
}
