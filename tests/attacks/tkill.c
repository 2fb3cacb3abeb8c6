// attack: tkill
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: tkill(VICTIM, SIGUSR1); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	if (syscall(SYS_tkill, v, SIGUSR1))
		say("tkill: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
