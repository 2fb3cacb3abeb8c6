// attack: mprotect_exec
// flags: --no-jit --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 | jit-allowed,xfail
// evidence: code written into anonymous memory is made executable with mprotect(PROT_EXEC) and runs (canary mprotect_exec)
// escaped-if: ev mprotect_exec
#include "attack.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const unsigned char code[] = { 0xb8, 0x37, 0x13, 0x00, 0x00, 0xc3 };
	memcpy(p, code, sizeof code);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC)) {
		say("mprotect: %s\n", strerror(errno));
		return 1;
	}
	if (((int (*)(void))p)() == 0x1337)
		canary("mprotect_exec", "ran code made executable by mprotect\n");
	return 0;
}
