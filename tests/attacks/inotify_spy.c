// attack: inotify_spy
// round: 2 - an inotify watch on the grader's directory catches the expected output the moment it appears
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim:churn
// evidence: the name of a short-lived file the grader creates (it contains the secret) is caught with inotify and printed
// escaped-if: secret_leaked
#include "attack.h"
#include <poll.h>
#include <sys/inotify.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int fd = inotify_init1(IN_NONBLOCK);
	if (fd < 0) {
		say("inotify_init1: %s\n", strerror(errno));
		return 1;
	}
	if (inotify_add_watch(fd, arg("grader"), IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE) < 0) {
		say("inotify_add_watch: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 40; i++) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 50) <= 0)
			continue;
		char buf[8192] __attribute__((aligned(8)));
		ssize_t n = read(fd, buf, sizeof buf);
		for (char *q = buf; n > 0 && q < buf + n;) {
			struct inotify_event *e = (void *)q;
			if (e->len && !strncmp(e->name, "expected-", 9)) {
				say("CAUGHT %s\n", e->name);
				return 0;
			}
			q += sizeof *e + e->len;
		}
	}
	return 1;
}
