// attack: env_ld_preload
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: ld_preload
// evidence: the grader's environment carries LD_PRELOAD=preload_canary.so (a hostile library); if it reaches the sandboxed program, its constructor leaves canary preload_ran
// escaped-if: ev preload_ran
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	say("LD_PRELOAD=%s\n", getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "(unset)");
	return 0;
}
