// attack: file_caps
// round: 6 - a binary with a file capability (as ping has cap_net_raw) gains it at exec
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: filecaps
// isolate-uid: yes
// setup: filecaps
// evidence: the attack binary carries cap_dac_read_search+ep; with it, an ordinary uid reads grader/sealed.txt (root's, mode 0600) and prints the secret in it
// escaped-if: secret_leaked
// note: what stops it is no-new-privs (execve grants at most what the process holds) with every capability set of the sandboxed process empty, in its own user namespace too
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	FILE *st = fopen("/proc/self/status", "r");
	char line[256];
	while (st && fgets(line, sizeof line, st))
		if (!strncmp(line, "Cap", 3))
			say("%s", line);
	if (st)
		fclose(st);
	char path[4096];
	snprintf(path, sizeof path, "%s/sealed.txt", arg("grader") ? arg("grader") : ".");
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		say("open %s: %s\n", path, strerror(errno));
		return 1;
	}
	char buf[256];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n > 0) {
		buf[n] = 0;
		say("read the sealed file: %s", buf);
	}
	return 0;
}
