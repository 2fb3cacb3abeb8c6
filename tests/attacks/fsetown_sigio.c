// attack: fsetown_sigio
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: no kill at all: fcntl(F_SETOWN, VICTIM)+F_SETSIG(SIGUSR1)+O_ASYNC on a pipe, then a write makes the kernel deliver SIGUSR1 to the victim; the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// escaped-if: victim_hit
// variant: landlock-scope | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	int p[2];
	if (pipe(p))
		return 2;
	if (fcntl(p[0], F_SETOWN, v))
		say("F_SETOWN: %s\n", strerror(errno));
	if (fcntl(p[0], F_SETSIG, SIGUSR1))
		say("F_SETSIG: %s\n", strerror(errno));
	if (fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK))
		say("F_SETFL: %s\n", strerror(errno));
	if (write(p[1], "x", 1) < 0)
		say("write: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
