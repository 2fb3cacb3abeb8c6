// attack: fork_bomb
// flags: --no-network --clean-env --cpu 5 --mem 256
// settle: 0.3
// evidence: fork allowed (default --nproc 10): every process forks as fast as it can (bounded at 150 processes in total so the bare run stays safe) and they all sleep holding alive.lock; contained = none is left after the run (no survivor) and the runner can still fork
// exclusive: yes
// escaped-if: survivor || ! can_fork
#include "attack.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int *budget = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*budget = 150;
	pid_t top = getpid();
	hold_alive_lock();
	int failures = 0;
	while (__atomic_sub_fetch(budget, 1, __ATOMIC_SEQ_CST) >= 0) {
		pid_t p = fork();
		if (p < 0 && ++failures > 50)
			break;
	}
	if (getpid() == top) {
		say("fork failures in top process: %d\n", failures);
		sleep_ms(1000);
		return 0;
	}
	for (int i = 0; i < 80; i++)
		sleep_ms(100);
	_exit(0);
}
