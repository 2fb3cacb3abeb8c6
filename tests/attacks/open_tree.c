// attack: open_tree
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: userns_or_root
// evidence: open_tree(OPEN_TREE_CLONE)+move_mount attach a copy of EV/a at EV/b: a file created through EV/b lands in EV/a (private mount namespace)
// escaped-if: test -e "$EV/a/through_tree"
// cleanup: umount -l "$EV/b" 2>/dev/null
#include "attack.h"
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char a[1024], b[1024], f[1100];
	evpath(a, sizeof a, "a");
	evpath(b, sizeof b, "b");
	mkdir(a, 0777);
	mkdir(b, 0777);
	enter_mount_ns();
	long fd = syscall(428 /* open_tree */, AT_FDCWD, a, OPEN_TREE_CLONE | O_CLOEXEC);
	if (fd < 0) {
		say("open_tree: %s\n", strerror(errno));
		return 1;
	}
	if (syscall(429 /* move_mount */, fd, "", AT_FDCWD, b, MOVE_MOUNT_F_EMPTY_PATH)) {
		say("move_mount: %s\n", strerror(errno));
		return 1;
	}
	snprintf(f, sizeof f, "%s/through_tree", b);
	say("created through cloned tree: %d\n", open(f, O_WRONLY | O_CREAT, 0666));
	return 0;
}
