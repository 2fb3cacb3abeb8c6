// attack: tty_modes
// round: 4 - change the grader's terminal: its window size (the kernel then sends SIGWINCH to the grader's process group) and its modes (echo, canonical input)
// flags: --no-network --clean-env --cpu 5 --mem 256
// variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 | no-fork,xfail
// setup: tty
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256 | no-fork+landlock
// variant-xfail: only where the host has no Landlock: there a --no-fork run of an ordinary user (whose program has the grader's uid and no mount namespace) can open the grader's terminal by its name under /dev/pts
// evidence: after the run the runner's pty has another window size than the 37x113 it set, or echo turned on (it starts raw)
// escaped-if: [ "$(st tty_winsize)" != 37x113x4242x4243 ] || [ $(( $(st tty_lflag) & 8 )) != 0 ]
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int t = need_grader_tty();
	struct winsize ws = { 99, 77, 4242, 4243 }; /* keeps the mark */
	if (ioctl(t, TIOCSWINSZ, &ws) != 0)
		say("TIOCSWINSZ: %s\n", strerror(errno));
	struct termios tio;
	if (tcgetattr(t, &tio) == 0) {
		tio.c_lflag |= ECHO | ICANON;
		if (tcsetattr(t, TCSANOW, &tio) != 0)
			say("tcsetattr: %s\n", strerror(errno));
	}
	return 0;
}
