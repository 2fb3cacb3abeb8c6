// attack: prctl_stealth
// flags: --no-network --clean-env --cpu 5 --mem 256 --nproc 50
// settle: 0.3
// evidence: a forked child disguises itself (PR_SET_NAME kworker, argv wiped, new session, cwd /, stdio closed) and tries to outlive the run (alive.lock held after the sandbox returned)
// escaped-if: survivor
#include "attack.h"
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int pfd[2];
	if (pipe(pfd))
		return 1;
	pid_t p = fork();
	if (p < 0) {
		say("fork: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		int lk = hold_alive_lock();
		(void)lk;
		setsid();
		prctl(PR_SET_NAME, "kworker/0:2", 0, 0, 0);
		for (int i = 0; i < argc; i++)
			memset(argv[i], 0, strlen(argv[i]));
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		if (chdir("/")) {}
		if (write(pfd[1], "r", 1) < 0) {}
		close(0);
		close(1);
		close(2);
		close(pfd[1]);
		for (int i = 0; i < 80; i++)
			sleep_ms(100);
		_exit(0);
	}
	char c;
	close(pfd[1]);
	if (read(pfd[0], &c, 1) < 0) {}
	return 0;
}
