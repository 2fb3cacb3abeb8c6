// attack: futex_wake
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim:futex
// evidence: a grader-side process waiting on a futex in shared memory (/dev/shm, same uid) is woken from inside the sandbox (victim writes victim.futex_woken)
// escaped-if: ev victim.futex_woken
// xfail: by design without the layer of its variants (the uid's /dev/shm files are reachable without Landlock or a private /dev/shm)
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
// cleanup: rm -f "/dev/shm/sandlock-$TOKEN.futex"
#include "attack.h"
#include <linux/futex.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	char p[256];
	snprintf(p, sizeof p, "/dev/shm/sandlock-%s.futex", arg("token"));
	int fd = open(p, O_RDWR);
	if (fd < 0) {
		say("open %s: %s\n", p, strerror(errno));
		return 1;
	}
	unsigned *f = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED) {
		say("mmap: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 20; i++) {
		long n = syscall(SYS_futex, f, FUTEX_WAKE, 1, NULL, NULL, 0);
		if (n > 0) {
			say("woke %ld\n", n);
			break;
		}
		sleep_ms(50);
	}
	return 0;
}
