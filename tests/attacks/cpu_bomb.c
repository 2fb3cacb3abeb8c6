// attack: cpu_bomb
// flags: --no-fork --no-network --clean-env --cpu 1 --mem 256
// bare-timeout: 4
// timeout: 12
// evidence: five threads spin forever ignoring SIGXCPU; contained = the run ends within --cpu 1 plus slack (wall < 3.5 s by the launcher's clock) with nothing left behind
// exclusive: yes
// escaped-if: [ "$(st wall_ms)" -ge 3500 ] || survivor
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
