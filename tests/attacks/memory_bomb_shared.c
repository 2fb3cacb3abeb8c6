// attack: memory_bomb_shared
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the same bomb with MAP_SHARED|MAP_ANONYMOUS memory (not counted by RLIMIT_DATA): touches up to 640 MB; contained = peak RSS by wait4 stays under 280000 KB
// exclusive: yes
// layers: seccomp_notify (shared memory is counted by the supervisor, which sees each mapping through user notification; RLIMIT_AS is the only backstop without it)
// escaped-if: [ "$(st maxrss_kb)" -gt 280000 ]
#include "attack.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	size_t got = 0, chunk = 16 << 20;
	for (int i = 0; i < 40; i++) {
		char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		for (size_t o = 0; o < chunk; o += 4096)
			p[o] = 1;
		got += chunk;
	}
	say("touched %zu MB shared\n", got >> 20);
	return 0;
}
