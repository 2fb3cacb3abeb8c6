// attack: kill_parent
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: kill(getppid(), SIGKILL) kills the supervisor (bare: the launcher); the launcher's raw wait status (not the sandbox's report) shows it: no status file (launcher died) or "signal N" for the sandbox process
// escaped-if: launcher_killed
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t pp = getppid();
	say("killing parent %d\n", pp);
	if (pp > 1 && kill(pp, SIGKILL))
		say("kill: %s\n", strerror(errno));
	sleep_ms(300);
	return 0;
}
