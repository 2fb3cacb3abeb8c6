// attack: memfd_secret
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: memfd_secret
// evidence: memfd_secret() memory (hidden even from the kernel's own access paths) is created, mapped and used (canary memfd_secret)
// escaped-if: ev memfd_secret
#include "attack.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	long fd = syscall(447 /* memfd_secret */, 0);
	if (fd < 0) {
		say("memfd_secret: %s\n", strerror(errno));
		return 1;
	}
	if (ftruncate(fd, 4096)) {
		say("ftruncate: %s\n", strerror(errno));
		return 1;
	}
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		say("mmap: %s\n", strerror(errno));
		return 1;
	}
	strcpy(p, "hidden");
	if (!strcmp(p, "hidden"))
		canary("memfd_secret", "secret memory in use\n");
	return 0;
}
