// attack: tiocsti
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: tty
// needs: tiocsti
// evidence: ioctl(TIOCSTI) with the high 32 bits of the command set (0x100005412) pushes a command into the terminal's input queue (the runner's pty holds "echo sandlock-injected-TOKEN")
// escaped-if: grep -aq "injected-$TOKEN" "$RUN/tty_input"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "echo sandlock-injected-%s\n", arg("token"));
	for (char *c = cmd; *c; c++) {
		if (syscall(SYS_ioctl, 0, 0x100005412UL, c)) {
			say("TIOCSTI: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}
