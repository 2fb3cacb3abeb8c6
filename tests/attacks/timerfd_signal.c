// attack: timerfd_signal
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: forging the supervisor's timer signal: SIGALRM (then SIGVTALRM) sent to getppid() kills or trips the supervisor (bare: the launcher); judged by the launcher's raw wait status
// escaped-if: launcher_killed
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t pp = getppid();
	if (pp > 1 && kill(pp, SIGALRM))
		say("kill SIGALRM: %s\n", strerror(errno));
	sleep_ms(200);
	if (pp > 1 && getppid() == pp && kill(pp, SIGVTALRM))
		say("kill SIGVTALRM: %s\n", strerror(errno));
	sleep_ms(300);
	return 0;
}
