// attack: raw_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// needs: root
// evidence: a hand-built IPv4/UDP packet sent through socket(AF_INET, SOCK_RAW, IPPROTO_RAW) reaches the runner's UDP listener (payload "raw-socket")
// escaped-if: grep -aq raw-socket "$EV/conn.udp"
#include "attack.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "rawpkt.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (s < 0) {
		say("socket(SOCK_RAW): %s\n", strerror(errno));
		return 1;
	}
	unsigned char pkt[256];
	int n = build_udp(pkt, arg_long("udp"), "raw-socket");
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (sendto(s, pkt, n, 0, (void *)&a, sizeof a) < 0)
		say("sendto: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
