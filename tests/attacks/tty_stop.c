// attack: tty_stop
// round: 4 - stop the grader's terminal (TCXONC) and then write to it: the writer blocks, and with it a supervisor that copies the program's output, past --timeout
// flags: --no-network --clean-env --cpu 5 --mem 256 --timeout 2
// variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 --timeout 2 | no-fork,xfail
// variant: - | --no-network --clean-env --cpu 5 --mem 256 --timeout 2 --max-output 4000000 | output cap
// setup: tty
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256 --timeout 2 | no-fork+landlock
// variant-xfail: only where the host has no Landlock: there a --no-fork run of an ordinary user (whose program has the grader's uid and no mount namespace) can open the grader's terminal by its name under /dev/pts
// timeout: 8
// bare-timeout: 3
// evidence: tcflow(TCOOFF) on any descriptor of the runner's terminal (its own, /dev/tty, or /dev/pts/N by name), then 1 MB written to stdout: the run is still going when the launcher's own timeout kills it (the sandbox's --timeout 2 is 6 s earlier)
// escaped-if: [ "$(st timeout)" = 1 ]
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int t = grader_tty();
	if (t < 0)
		say("no terminal\n");
	else if (tcflow(t, TCOOFF) != 0)
		say("tcflow: %s\n", strerror(errno));
	static char buf[65536];
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 16; i++)
		if (write(1, buf, sizeof buf) < 0)
			break;
	if (t >= 0)
		tcflow(t, TCOON);
	return 0;
}
