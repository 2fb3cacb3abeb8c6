// honest: c_fork_4000
// flags: --no-network --clean-env --cpu 20 --mem 512 --nproc 4400 --timeout 60
// evidence: a run allowed thousands of processes (a grader's stress test) starts 4,000 children that all stay alive together, then lets them go and reaps them; prints fork4000-ok with the count reaped.  Where the supervisor counts each clone (no user namespace of the run's own: a container) and its samples of the run took longer than their interval, it answered one clone per sample and the run spent its whole wall limit forking
// ok-if: out_has "fork4000-ok 4000"
// timeout: 80
// lock: processes (thousands at once: one such test at a time on the machine, whatever the lane)
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 4000

int main(void)
{
	int go[2];
	if (pipe(go) != 0)
		return perror("pipe"), 1;
	for (int i = 0; i < N; i++) {
		pid_t p = fork();
		if (p < 0)
			return fprintf(stderr, "fork %d: failed\n", i), 1;
		if (p == 0) {
			close(go[1]);
			char c;
			(void)!read(go[0], &c, 1); /* alive until the parent lets go */
			_exit(0);
		}
	}
	close(go[1]);
	int reaped = 0, st;
	while (wait(&st) > 0)
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			reaped++;
	printf("fork4000-ok %d\n", reaped);
	return reaped == N ? 0 : 1;
}
