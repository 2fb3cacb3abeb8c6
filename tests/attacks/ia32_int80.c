// attack: ia32_int80
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: ia32
// evidence: creat() through the i386 ABI (int $0x80, eax=8) from a 64-bit binary creates canary ia32_canary
// escaped-if: ev ia32_canary
#include "attack.h"
#include <sys/mman.h>

static long int80(long nr, long a, long b, long c)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory", "r8", "r9", "r10", "r11");
	return r;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED)
		return 2;
	evpath(low, 4096, "ia32_canary");
	long fd = int80(8 /* i386 creat */, (long)low, 0644, 0);
	say("int80 creat: %ld\n", fd);
	return 0;
}
