// attack: exec_after_start
// flags: --no-exec --no-network --clean-env --cpu 5 --mem 256 --violation errno
// evidence: once running, the program replaces itself with a shell in every way exec can be asked for: execve, execveat by path, execveat of a descriptor, from a second thread, in a forked child; the shell leaves canary exec_ran.N
// escaped-if: ls "$EV"/exec_ran.* >/dev/null 2>&1
// variant: - | --no-exec --no-network --clean-env --cpu 5 --mem 256 | kill mode
// variant: - | --no-exec --no-fork --no-network --clean-env --cpu 5 --mem 256 --violation errno | no-fork
#include "attack.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

extern char **environ;
static char cmd[1200];

static char **shell(int n)
{
	static char *av[4];
	snprintf(cmd, sizeof cmd, "echo ran > %s/exec_ran.%d", EV, n);
	av[0] = "sh", av[1] = "-c", av[2] = cmd, av[3] = NULL;
	return av;
}

static void *from_thread(void *a)
{
	(void)a;
	execve("/bin/sh", shell(4), environ);
	say("execve from a thread: %s\n", strerror(errno));
	return NULL;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	execve("/bin/sh", shell(1), environ);
	say("execve: %s\n", strerror(errno));
	syscall(SYS_execveat, AT_FDCWD, "/bin/sh", shell(2), environ, 0);
	say("execveat: %s\n", strerror(errno));
	int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
	syscall(SYS_execveat, fd, "", shell(3), environ, AT_EMPTY_PATH);
	say("execveat(fd): %s\n", strerror(errno));
	pthread_t t;
	if (pthread_create(&t, NULL, from_thread, NULL) == 0)
		pthread_join(t, NULL);
	pid_t p = fork();
	if (p == 0) {
		execve("/bin/sh", shell(5), environ);
		_exit(1);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
	return 0;
}
