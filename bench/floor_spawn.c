/* floor_spawn - the first floor program of the benchmark suite.
 *
 *   floor_spawn COMMAND [ARGS...]
 *
 * Only forks (vfork: the cheapest fork, no page-table copy), execs COMMAND
 * and waits for it.  Exit status: the child's exit code, 128+signal when it
 * was killed by a signal, 127 when it could not be executed.  Linked
 * statically, so its own start-up is as small as a C program's can be.
 * Every start-up figure of the suite is divided by this or by floor_profile.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: floor_spawn COMMAND [ARGS...]\n");
        return 2;
    }
    volatile int exec_errno = 0;
    pid_t pid = vfork();
    if (pid < 0) {
        perror("floor_spawn: vfork");
        return 125;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        exec_errno = errno;
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("floor_spawn: waitpid");
            return 125;
        }
    }
    if (exec_errno) {
        fprintf(stderr, "floor_spawn: %s: %s\n", argv[1], strerror(exec_errno));
        return exec_errno == ENOENT ? 127 : 126;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 125;
}
