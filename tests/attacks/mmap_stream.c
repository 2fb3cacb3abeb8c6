// attack: mmap_stream
// flags: --no-fork --no-network --clean-env --cpu 1 --mem 256 --timeout 20
// bare-timeout: 100
// timeout: 25
// evidence: a stream of shared anonymous mappings, each of which the filter shows to the supervisor, with the address space past --mem (a PROT_NONE reservation) and 30,000 small private mappings, so that the supervisor's check reads a long memory map for every call: the program pays a system call, the supervisor a whole core (before: 59.6 s of the supervisor's CPU in 60 s, the program's 0.3 s); it goes on until it has used 4 s of CPU of its own (90 s of wall at most: a loaded machine gives a bare run less than a core; check-full's lanes gave it 1.3-2.8 s of CPU in 15 s, and 2.4 s in 40 s with a core busy besides); contained = the CPU of the whole sandbox (the launcher's wait4: supervisor and program) stays under 3 s under --cpu 1, where bare the program alone uses the 4 s
// exclusive: yes
// escaped-if: [ "$(st cpu_ms)" -ge 3000 ]
#include "attack.h"
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	/* address space, not memory: past --mem, so no cheap bound holds */
	mmap(NULL, 300ul << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	/* a long memory map: alternate protections keep the mappings apart */
	for (int i = 0; i < 30000; i++)
		mmap(NULL, 4096, (i & 1) ? PROT_READ : PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long calls = 0;
	double end = now() + 90;
	struct timespec cpu = { 0, 0 };
	while (now() < end && cpu.tv_sec < 4) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, 4096);
		calls++;
		if (!(calls & 255))
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	}
	say("%ld shared mappings\n", calls);
	return 0;
}
