// attack: x32_syscall
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: x32
// evidence: creat() issued through the x32 ABI (syscall number | 0x40000000) creates canary x32_canary (x32 calls must be stopped, whatever they are)
// escaped-if: ev x32_canary
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char p[1024];
	evpath(p, sizeof p, "x32_canary");
	long fd = syscall(0x40000000 | SYS_creat, p, 0644);
	say("x32 creat: %ld %s\n", fd, fd < 0 ? strerror(errno) : "");
	return 0;
}
