// attack: socketpair
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: socketpair(AF_UNIX) is created and carries a byte under --no-network (canary socketpair)
// escaped-if: ev socketpair
#include "attack.h"
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int sv[2];
	char c = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		say("socketpair: %s\n", strerror(errno));
		return 1;
	}
	if (write(sv[0], "x", 1) == 1 && read(sv[1], &c, 1) == 1 && c == 'x')
		canary("socketpair", "byte through socketpair\n");
	return 0;
}
