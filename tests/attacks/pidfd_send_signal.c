// attack: pidfd_send_signal
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: pidfd_open(VICTIM)+pidfd_send_signal(SIGUSR1); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	long fd = syscall(SYS_pidfd_open, v, 0);
	if (fd < 0)
		say("pidfd_open: %s\n", strerror(errno));
	else if (syscall(SYS_pidfd_send_signal, fd, SIGUSR1, NULL, 0))
		say("pidfd_send_signal: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
