// attack: socket_inet6
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// needs: ipv6
// evidence: socket(AF_INET6)+connect reaches the runner's TCP listener on ::1
// escaped-if: conn tcp6
#include "attack.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(arg_long("tcp6")), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	if (s < 0 || connect(s, (void *)&a, sizeof a)) {
		say("connect6: %s\n", strerror(errno));
		return 1;
	}
	if (write(s, "inet6", 5) < 0) {}
	return 0;
}
