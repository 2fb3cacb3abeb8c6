// attack: cpu_bomb
// flags: --no-fork --no-network --clean-env --cpu 1 --mem 256
// bare-timeout: 4
// timeout: 12
// evidence: five threads spin forever ignoring SIGXCPU; contained = the run ends by itself (the launcher's timeout of 12 s did not have to kill it) having used less than 2.5 s of CPU over the whole tree (the launcher's wait4; the wall clock is no evidence: a loaded machine gives the threads less than a core), with nothing left behind
// exclusive: yes
// escaped-if: [ "$(st timeout)" = 1 ] || [ "$(st cpu_ms)" -ge 2500 ] || survivor
#include "attack.h"
#include <pthread.h>

static void *spin(void *a)
{
	volatile unsigned long x = 0;
	(void)a;
	for (;;)
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	signal(SIGXCPU, SIG_IGN);
	hold_alive_lock();
	pthread_t t;
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, spin, NULL);
	spin(NULL);
	return 0;
}
