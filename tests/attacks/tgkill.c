// attack: tgkill
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: tgkill(VICTIM, VICTIM, SIGUSR1); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	if (syscall(SYS_tgkill, v, v, SIGUSR1))
		say("tgkill: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
