// attack: unshare_ns
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: userns_or_root
// evidence: unshare(CLONE_NEWUSER) then CLONE_NEWNET|NEWUTS succeed: the program is root of its own namespaces (canary unshared, with the uid seen inside)
// escaped-if: ev unshared
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	uid_t u = getuid();
	char b[64];
	if (unshare(CLONE_NEWUSER)) {
		say("unshare(NEWUSER): %s\n", strerror(errno));
		return 1;
	}
	snprintf(b, sizeof b, "0 %u 1", u);
	write_str("/proc/self/setgroups", "deny");
	write_str("/proc/self/uid_map", b);
	if (unshare(CLONE_NEWNET | CLONE_NEWUTS)) {
		say("unshare(NEWNET|NEWUTS): %s\n", strerror(errno));
		return 1;
	}
	snprintf(b, sizeof b, "uid inside: %d\n", getuid());
	canary("unshared", b);
	return 0;
}
