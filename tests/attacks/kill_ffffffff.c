// attack: kill_ffffffff
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: the raw kill syscall with pid 0x00000000ffffffff (= -1 to the kernel, not to a 64-bit filter compare) (SIGKILL where the runner isolates the uid, else SIGCONT); the victim (a grader-side process of the same uid, in its own session) records any signal it gets or dies
// exclusive: yes
// escaped-if: victim_hit
// isolate-uid: yes
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t v = arg_long("victim");
	(void)v;
	int sig = broadcast_signal();
	if (syscall(SYS_kill, 0xffffffffUL, sig))
		say("kill: %s\n", strerror(errno));
	sleep_ms(100);
	return 0;
}
