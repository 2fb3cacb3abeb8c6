// attack: kernel_module
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: root,modules
// evidence: finit_module reaches the module loader (it rejects /dev/null as a module with an error other than EPERM/ENOSYS) (canary module_loader_reached)
// escaped-if: ev module_loader_reached
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int fd = open("/dev/null", O_RDONLY);
	long r = syscall(SYS_finit_module, fd, "", 0);
	int e = errno;
	say("finit_module: %ld %s\n", r, strerror(e));
	if (r == 0 || (e != EPERM && e != ENOSYS))
		canary("module_loader_reached", strerror(e));
	return 0;
}
