// attack: setsid_escape
// flags: --no-network --clean-env --cpu 5 --mem 256 --nproc 50
// settle: 0.3
// evidence: fork allowed: a child calls setsid() to leave the process group and session, forks a grandchild (double fork, daemon style) and exits; the grandchild must not outlive the run (alive.lock still held = survivor)
// escaped-if: survivor
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int pfd[2];
	if (pipe(pfd))
		return 2;
	pid_t c = fork();
	if (c < 0) {
		say("fork: %s\n", strerror(errno));
		return 1;
	}
	if (c == 0) {
		if (setsid() < 0)
			say("setsid: %s\n", strerror(errno));
		pid_t g = fork();
		if (g == 0) {
			hold_alive_lock();
			signal(SIGHUP, SIG_IGN);
			if (write(pfd[1], "r", 1) < 0) {}
			close(pfd[1]);
			for (int i = 0; i < 80; i++)
				sleep_ms(100);
			_exit(0);
		}
		_exit(g > 0 ? 0 : 1);
	}
	close(pfd[1]);
	waitpid(c, NULL, 0);
	char ch;
	if (read(pfd[0], &ch, 1) == 1)
		say("grandchild detached\n");
	return 0;
}
