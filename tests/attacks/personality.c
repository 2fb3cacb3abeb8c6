// attack: personality
// round: 3 - personality(READ_IMPLIES_EXEC) makes every readable page executable
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: after personality(READ_IMPLIES_EXEC), code in a page mapped/protected PROT_READ only runs (canary rie_exec)
// escaped-if: ev rie_exec
#include "attack.h"
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/personality.h>

static sigjmp_buf jb;
static void onsegv(int s) { (void)s; siglongjmp(jb, 1); }

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int old = personality(READ_IMPLIES_EXEC);
	if (old == -1) {
		say("personality: %s\n", strerror(errno));
		return 1;
	}
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const unsigned char code[] = { 0xb8, 0x37, 0x13, 0x00, 0x00, 0xc3 }; /* mov eax,0x1337; ret */
	memcpy(p, code, sizeof code);
	if (mprotect(p, 4096, PROT_READ)) {
		say("mprotect: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGSEGV, onsegv);
	if (sigsetjmp(jb, 1)) {
		say("PROT_READ page not executable\n");
		return 1;
	}
	int r = ((int (*)(void))p)();
	if (r == 0x1337) {
		canary("rie_exec", "executed code from a PROT_READ page\n");
		say("executed PROT_READ page\n");
	}
	return 0;
}
