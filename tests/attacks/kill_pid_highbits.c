// attack: kill_pid_highbits
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: the raw kill syscall with pid = VICTIM | 0xffffffff00000000 (the kernel reads only the low 32 bits); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	if (syscall(SYS_kill, 0xffffffff00000000UL | (unsigned long)v, SIGUSR1))
		say("kill: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
