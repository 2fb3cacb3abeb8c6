/* Attacks on the supervisor's walk of a run's processes (hidden_children,
 * many_processes, setsid_memory): `idle` children that do nothing, then
 * `hogs` more that each touch hog_mb of memory and hold it, each out of
 * the run's session first if `leave` (setsid: refused where the filter
 * is, and the memory is held anyway).  When all the hogs held their
 * memory together for long enough (many samples of the run: 3 s, and
 * 2 ms more per idle child, since a walk's time grows with the run: a
 * walk of 4,240 processes took over 1.5 s on a slow guest under a
 * CI-shaped load, and a sampled limit is seen within two walks), says
 * "held N MB", the evidence of the escape (a walk that never sees the
 * hogs lets them hold it for ever).  Returns main's status. */
#include <sys/mman.h>
#include <sys/wait.h>

static int idle_then_hogs(int idle, int hogs, int hog_mb, int leave)
{
	int go[2], done[2];
	if (pipe(go) != 0 || pipe(done) != 0)
		return 1;
	for (int i = 0; i < idle + hogs; i++) {
		pid_t p = fork();
		if (p < 0) {
			say("fork %d: failed\n", i);
			return 1;
		}
		if (p)
			continue;
		close(done[0]);
		close(go[1]); /* the parent's close ends every read below */
		if (i >= idle) {
			if (leave)
				(void)setsid();
			size_t len = (size_t)hog_mb << 20;
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
	while (n < hogs && read(done[0], &c, 1) == 1)
		n++;
	if (n < hogs) {
		say("only %d hogs held their memory\n", n);
		return 1;
	}
	sleep_ms(3000 + 2 * idle);
	say("held %d MB in %d children past the first %d\n", hogs * hog_mb, hogs, idle);
	close(go[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}
