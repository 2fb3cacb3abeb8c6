// attack: keyring
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: add_key stores data in the per-uid user keyring, which outlives the run and is shared with the uid's other processes (canary key_added; the key expires after 5 s)
// escaped-if: ev key_added
#include "attack.h"
#include <linux/keyctl.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char desc[128];
	snprintf(desc, sizeof desc, "sandlock-%s", arg("token") ? arg("token") : "x");
	long id = syscall(SYS_add_key, "user", desc, "persisted-payload", 17, KEY_SPEC_USER_KEYRING);
	if (id < 0) {
		say("add_key: %s\n", strerror(errno));
		return 1;
	}
	syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, id, 5);
	char b[64];
	snprintf(b, sizeof b, "key %ld\n", id);
	canary("key_added", b);
	return 0;
}
