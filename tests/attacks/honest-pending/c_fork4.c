// honest: c_fork4
// flags: --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
// evidence: a C program under the forking profile forks 4 children; each writes CWD/child.N and exits N; the parent waits for all and checks every status; prints fork-ok 4
// ok-if: out_has "fork-ok 4" && for i in 0 1 2 3; do grep -qx "child $i" "$CWD/child.$i" || exit 1; done
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	pid_t pid[4];
	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("fork");
			return 1;
		}
		if (pid[i] == 0) {
			char name[32];
			snprintf(name, sizeof name, "child.%d", i);
			FILE *f = fopen(name, "w");
			if (!f)
				_exit(100);
			fprintf(f, "child %d\n", i);
			fclose(f);
			_exit(i);
		}
	}
	int ok = 0;
	for (int i = 0; i < 4; i++) {
		int st;
		if (waitpid(pid[i], &st, 0) == pid[i] && WIFEXITED(st) && WEXITSTATUS(st) == i)
			ok++;
	}
	printf("fork-ok %d\n", ok);
	return ok != 4;
}
