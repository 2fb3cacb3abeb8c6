// attack: hidden_children
// flags: --no-network --clean-env --cpu 20 --mem 256 --nproc 1100 --timeout 60
// evidence: a process with more children than one read of its /proc/PID/task/TID/children returns (a page: 511-819 pids): 1,000 idle children first, then 40 that each touch 16 MB and hold it; the parent says "held" when all 40 held their memory together for 3 s (640 MB against --mem 256); contained = it never says so (a walk of the run that reads a page of each list never saw the last 40 and let them hold it)
// exclusive: yes
// layers: - (the supervisor's sampled walk of the run's processes, on every host)
// escaped-if: out_has "held 640 MB"
#include "attack.h"
#include <sys/mman.h>
#include <sys/wait.h>

#define IDLE 1000
#define HOGS 40
#define HOG_MB 16

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int go[2], done[2];
	if (pipe(go) != 0 || pipe(done) != 0)
		return 1;
	for (int i = 0; i < IDLE + HOGS; i++) {
		pid_t p = fork();
		if (p < 0) {
			say("fork %d: failed\n", i);
			return 1;
		}
		if (p)
			continue;
		close(done[0]);
		close(go[1]); /* the parent's close ends every read below */
		if (i >= IDLE) {
			size_t len = (size_t)HOG_MB << 20;
			char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				_exit(1);
			for (size_t o = 0; o < len; o += 4096)
				m[o] = 1;
			if (write(done[1], "x", 1) != 1)
				_exit(1);
		}
		char c;
		(void)!read(go[0], &c, 1); /* idle until the parent ends */
		_exit(0);
	}
	close(done[1]);
	/* every hog holds its memory */
	int n = 0;
	char c;
	while (n < HOGS && read(done[0], &c, 1) == 1)
		n++;
	if (n < HOGS) {
		say("only %d hogs held their memory\n", n);
		return 1;
	}
	/* all of it, together, for a while: many samples of the run */
	sleep_ms(3000);
	say("held %d MB in %d children past the first %d\n", HOGS * HOG_MB, HOGS, IDLE);
	close(go[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}
