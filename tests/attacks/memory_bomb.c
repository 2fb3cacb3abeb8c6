// attack: memory_bomb
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: touches up to 512 MB of private memory in 8 MB chunks, carrying on after failures; contained = peak RSS (ru_maxrss of the launcher's wait4, i.e. the kernel's count) stays under the 256 MB limit (+ slack: 280000 KB)
// exclusive: yes
// escaped-if: [ "$(st maxrss_kb)" -gt 280000 ]
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	size_t got = 0, chunk = 8 << 20;
	for (int i = 0; i < 64; i++) {
		char *p = malloc(chunk);
		if (!p)
			continue;
		for (size_t o = 0; o < chunk; o += 4096)
			p[o] = 1;
		got += chunk;
	}
	say("touched %zu MB\n", got >> 20);
	return 0;
}
