// attack: tty_write_past_cap
// round: 4 - write to the grader's terminal through a descriptor that is not stdout (stdin is a terminal opened for writing too): past --max-output
// flags: --no-network --clean-env --cpu 5 --mem 256 --max-output 65536
// variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 --max-output 65536 | no-fork,xfail
// setup: tty
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256 --max-output 65536 | no-fork+landlock
// variant-xfail: only where the host has no Landlock: there a --no-fork run of an ordinary user (whose program has the grader's uid and no mount namespace) can open the grader's terminal by its name under /dev/pts
// evidence: more than 1 MB reaches the runner's terminal (its output file) while --max-output is 64 KB
// escaped-if: [ "$(fsize "$OUT")" -gt 1000000 ]
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int t = need_grader_tty();
	int fl = fcntl(t, F_GETFL);
	fcntl(t, F_SETFL, fl & ~O_NONBLOCK);
	static char buf[65536];
	memset(buf, 'y', sizeof buf);
	size_t sent = 0;
	for (int i = 0; i < 24; i++) {
		ssize_t w = write(t, buf, sizeof buf);
		if (w <= 0)
			break;
		sent += (size_t)w;
	}
	say("sent %zu\n", sent);
	return 0;
}
