// attack: shellcode_exec
// flags: --no-jit --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 | jit-allowed,xfail
// evidence: shellcode in a fresh RWX mapping runs and issues a raw syscall (getpid) (canary shellcode_ran)
// escaped-if: ev shellcode_ran
#include "attack.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		say("mmap rwx: %s\n", strerror(errno));
		return 1;
	}
	static const unsigned char code[] = { 0xb8, 0x27, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xc3 }; /* mov eax,39; syscall; ret */
	memcpy(p, code, sizeof code);
	long r = ((long (*)(void))p)();
	if (r == getpid())
		canary("shellcode_ran", "shellcode issued getpid\n");
	return 0;
}
