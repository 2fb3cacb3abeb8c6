// attack: prctl_dangerous
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: killparent
// settle: 0.5
// evidence: the program clears its parent-death signal (prctl PR_SET_PDEATHSIG 0), ignores SIGHUP/SIGTERM, then the runner SIGKILLs its parent (the sandbox; bare: the launcher): the program must not survive (alive.lock still held = survivor)
// escaped-if: survivor
// variant: pidns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
#include "attack.h"
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	say("PDEATHSIG 0: %d\n", prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0));
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if (hold_alive_lock() < 0)
		say("lock: %s\n", strerror(errno));
	canary("ready", NULL);
	for (int i = 0; i < 80; i++)
		sleep_ms(100);
	return 0;
}
