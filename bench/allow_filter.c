/* allow_filter - the least any seccomp filter costs.
 *
 *   allow_filter COMMAND [ARGS...]
 *
 * Installs a one-instruction filter that allows every system call (after
 * no-new-privs) and execs COMMAND.  Under it, bench/syscall_loop shows what
 * having a filter at all costs a system call on this kernel: the entry takes
 * the slow path even where the per-syscall cache answers.  The floor of the
 * per-syscall figures.  Static.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: allow_filter COMMAND [ARGS...]\n");
        return 2;
    }
    struct sock_filter insn[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    struct sock_fprog prog = {1, insn};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        perror("allow_filter: seccomp");
        return 125;
    }
    execvp(argv[1], argv + 1);
    perror("allow_filter: exec");
    return 127;
}
