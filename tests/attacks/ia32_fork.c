// attack: ia32_fork
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: ia32
// evidence: fork through the i386 ABI (int $0x80, eax=2) under --no-fork; the child creates canary child_ran (also via int $0x80)
// escaped-if: ev child_ran
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
	evpath(low, 4096, "child_ran");
	long p = int80(2 /* i386 fork */, 0, 0, 0);
	if (p == 0) {
		int80(8, (long)low, 0644, 0);
		int80(1 /* exit */, 0, 0, 0);
	}
	say("int80 fork: %ld\n", p);
	if (p > 0)
		waitpid(p, NULL, 0);
	return 0;
}
