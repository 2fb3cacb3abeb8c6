// attack: many_processes
// flags: --no-network --clean-env --cpu 20 --mem 256 --nproc 4400 --timeout 90
// evidence: a run allowed more processes than a walk of it kept (4,096): 4,200 idle children first, then 40 that each touch 16 MB and hold it; the parent says "held" when all 40 held their memory together for 11.4 s (3 s and 2 ms per idle child: a walk of the run takes longer as it grows; 640 MB against --mem 256); contained = it never says so (a walk that stopped at 4,096 processes never saw the last 40 and let them hold it)
// exclusive: yes
// lock: processes (thousands at once: one such test at a time on the machine, whatever the lane)
// timeout: 80
// layers: - (the supervisor's sampled walk of the run's processes, on every host)
// escaped-if: out_has "held 640 MB"
#include "attack.h"
#include "idle_then_hogs.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	return idle_then_hogs(4200, 40, 16, 0);
}
