// attack: setsid_memory
// flags: --no-network --clean-env --cpu 20 --mem 256 --nproc 20 --timeout 60
// evidence: four children each leave the run's session (setsid: refused where the filter is, allowed on a serverless host without filters) and touch 200 MB, holding it together for 3 s; the parent says "held 800 MB" then (800 MB against --mem 256); contained = it never says so (a walk of the run that kept only its session's processes never saw theirs)
// exclusive: yes
// timeout: 60
// layers: - (the supervisor's sampled walk of the run's processes, on every host)
// escaped-if: out_has "held 800 MB"
#include "attack.h"
#include "idle_then_hogs.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	return idle_then_hogs(0, 4, 200, 1);
}
