// attack: unix_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// evidence: socket(AF_UNIX)+connect reaches the grader's abstract unix socket @sandlock-TOKEN
// escaped-if: conn abstract
#include "attack.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *name = arg("abstract");
	size_t n = strlen(name);
	memcpy(a.sun_path + 1, name, n);
	if (s < 0 || connect(s, (void *)&a, offsetof(struct sockaddr_un, sun_path) + 1 + n)) {
		say("connect: %s\n", strerror(errno));
		return 1;
	}
	if (write(s, "abstract", 8) < 0) {}
	return 0;
}
