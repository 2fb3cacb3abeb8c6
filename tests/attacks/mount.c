// attack: mount
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: userns_or_root
// evidence: a bind mount of EV/a onto EV/b takes effect: a file created through EV/b lands in EV/a (done in a private mount namespace, so the host is never touched)
// escaped-if: test -e "$EV/a/through_mount"
// cleanup: umount -l "$EV/b" 2>/dev/null
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char a[1024], b[1024], f[1100];
	evpath(a, sizeof a, "a");
	evpath(b, sizeof b, "b");
	mkdir(a, 0777);
	mkdir(b, 0777);
	enter_mount_ns();
	if (mount(a, b, NULL, MS_BIND, NULL)) {
		say("mount: %s\n", strerror(errno));
		return 1;
	}
	snprintf(f, sizeof f, "%s/through_mount", b);
	int fd = open(f, O_WRONLY | O_CREAT, 0666);
	say("created through bind mount: %d\n", fd);
	return 0;
}
