// attack: prctl_seccomp
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// evidence: after stacking its own allow-everything filter (prctl PR_SET_SECCOMP and seccomp(2) with TSYNC), the program connects to the TCP listener
// escaped-if: conn tcp
#include "attack.h"
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct sock_filter f[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { 1, f };
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	say("prctl(PR_SET_SECCOMP): %d\n", prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
	say("seccomp(TSYNC): %ld\n", syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog));
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(arg_long("tcp")) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || connect(s, (void *)&a, sizeof a)) {
		say("connect: %s\n", strerror(errno));
		return 1;
	}
	if (write(s, "prctl_seccomp", 13) < 0) {}
	return 0;
}
