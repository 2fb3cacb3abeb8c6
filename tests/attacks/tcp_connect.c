// attack: tcp_connect
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// evidence: socket(AF_INET)+connect reaches the runner's TCP listener on 127.0.0.1
// escaped-if: conn tcp
#include "attack.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(arg_long("tcp")) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || connect(s, (void *)&a, sizeof a)) {
		say("connect: %s\n", strerror(errno));
		return 1;
	}
	if (write(s, "tcp_connect", 11) < 0) {}
	return 0;
}
