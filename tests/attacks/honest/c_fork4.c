// honest: c_fork4
// flags: --no-network --clean-env --cpu 5 --mem 256
// evidence: forks 4 children (the default forking profile), each exits with its index and writes CWD/child.N; the parent waits for all and prints fork-ok 0123
// ok-if: out_has "fork-ok 0123" && ev_all() { for i in 0 1 2 3; do [ -s "$CWD/child.$i" ] || return 1; done; }; ev_all
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	pid_t pid[4];
	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return perror("fork"), 1;
		if (pid[i] == 0) {
			char name[32];
			snprintf(name, sizeof name, "child.%d", i);
			FILE *f = fopen(name, "w");
			if (!f)
				_exit(100);
			fprintf(f, "child %d pid %d\n", i, (int)getpid());
			fclose(f);
			_exit(i);
		}
	}
	char got[5] = "????";
	for (int i = 0; i < 4; i++) {
		int st;
		if (waitpid(pid[i], &st, 0) == pid[i] && WIFEXITED(st) && WEXITSTATUS(st) < 4)
			got[i] = '0' + WEXITSTATUS(st);
	}
	printf("fork-ok %s\n", got);
	return 0;
}
