// attack: rt_sigqueueinfo
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: rt_sigqueueinfo(VICTIM, SIGUSR1, SI_QUEUE info); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	if (syscall(SYS_rt_sigqueueinfo, v, SIGUSR1, &si))
		say("rt_sigqueueinfo: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
