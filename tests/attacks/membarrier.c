// attack: membarrier
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: membarrier_global
// evidence: membarrier(MEMBARRIER_CMD_GLOBAL), a system-wide barrier that waits on every CPU (a cheap host-wide slowdown when looped), succeeds (canary membarrier_global)
// escaped-if: ev membarrier_global
#include "attack.h"
#include <linux/membarrier.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int ok = 0;
	for (int i = 0; i < 50; i++)
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
			ok++;
	say("global barriers: %d (%s)\n", ok, strerror(errno));
	if (ok)
		canary("membarrier_global", "ok\n");
	return 0;
}
