// attack: hidden_children
// flags: --no-network --clean-env --cpu 20 --mem 256 --nproc 1100 --timeout 60
// evidence: a process with more children than one read of its /proc/PID/task/TID/children returns (a page: 511-819 pids): 1,000 idle children first, then 40 that each touch 16 MB and hold it; the parent says "held" when all 40 held their memory together for 5 s (3 s and 2 ms per idle child; 640 MB against --mem 256); contained = it never says so (a walk of the run that reads a page of each list never saw the last 40 and let them hold it)
// exclusive: yes
// layers: - (the supervisor's sampled walk of the run's processes, on every host)
// escaped-if: out_has "held 640 MB"
#include "attack.h"
#include "idle_then_hogs.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	return idle_then_hogs(1000, 40, 16, 0);
}
