// attack: kill_all
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: round 4: kill(-1, SIGKILL) to take down every process of the user (SIGKILL where the runner isolates the uid, else SIGCONT); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// exclusive: yes
// escaped-if: victim_hit
// isolate-uid: yes
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	int sig = broadcast_signal();
	say("kill(-1, %d)\n", sig);
	if (kill(-1, sig))
		say("kill: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
