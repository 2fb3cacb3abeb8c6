// attack: inherited_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener stdin-socket
// evidence: no socket() at all: stdin is an (unconnected) AF_UNIX datagram socket the grader handed over; sendto() on it reaches the grader's abstract socket @sandlock-TOKEN-dgram
// escaped-if: conn abstract_dgram
#include "attack.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *name = arg("abstract_dgram");
	size_t n = strlen(name);
	memcpy(a.sun_path + 1, name, n);
	socklen_t al = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	if (sendto(0, "exfil-sendto", 12, 0, (void *)&a, al) < 0)
		say("sendto: %s\n", strerror(errno));
	struct iovec iov = { "exfil-sendmsg", 13 };
	struct msghdr m = { .msg_name = &a, .msg_namelen = al, .msg_iov = &iov, .msg_iovlen = 1 };
	if (sendmsg(0, &m, 0) < 0)
		say("sendmsg: %s\n", strerror(errno));
	return 0;
}
