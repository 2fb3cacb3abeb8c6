// attack: dnotify_spy
// round: 4 - dnotify (fcntl F_NOTIFY), the inotify of old: a signal on every change in the grader's directory tells when the grader writes its files
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: - | --no-network --clean-env --cpu 5 --mem 256 | forking
// setup: victim:churn
// evidence: the program gets the directory-change signal for the grader's directory (it prints DNOTIFY-FIRED with the count)
// escaped-if: out_has DNOTIFY-FIRED
#include "attack.h"
#include <signal.h>

static volatile sig_atomic_t fired;

static void on_change(int sig)
{
	(void)sig;
	fired++;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_change;
	sigaction(SIGRTMIN + 1, &sa, NULL);
	int fd = open(arg("grader"), O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		say("open: %s\n", strerror(errno));
		return 1;
	}
	if (fcntl(fd, F_SETSIG, SIGRTMIN + 1) != 0)
		say("F_SETSIG: %s\n", strerror(errno));
	if (fcntl(fd, F_NOTIFY, DN_CREATE | DN_MODIFY | DN_DELETE | DN_MULTISHOT) != 0) {
		say("F_NOTIFY: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 40 && !fired; i++)
		sleep_ms(50);
	if (fired)
		say("DNOTIFY-FIRED %d\n", (int)fired);
	return 0;
}
