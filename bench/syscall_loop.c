/* syscall_loop - per-syscall cost for the benchmark suite.
 *
 *   syscall_loop getppid N     N getppid() system calls
 *   syscall_loop write N       N one-byte write()s to /dev/null
 *
 * Times only the loop and prints one line on stdout:
 *   MODE N WALL_NS WALL_NS_PER_CALL CPU_NS CPU_NS_PER_CALL
 * WALL is CLOCK_MONOTONIC; CPU is CLOCK_PROCESS_CPUTIME_ID (user + system
 * time of this process), which leaves out the time spent waiting for a CPU
 * when other work shares the machine.
 * Raw syscall(2), so no libc caching hides the kernel entry.  Static.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "getppid") && strcmp(argv[1], "write"))) {
        fprintf(stderr, "usage: syscall_loop getppid|write N\n");
        return 2;
    }
    long n = strtol(argv[2], NULL, 10);
    if (n <= 0) {
        fprintf(stderr, "syscall_loop: N must be > 0\n");
        return 2;
    }
    long long t0, t1, c0, c1;
    if (!strcmp(argv[1], "getppid")) {
        c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        t0 = now_ns(CLOCK_MONOTONIC);
        for (long i = 0; i < n; i++)
            syscall(SYS_getppid);
        t1 = now_ns(CLOCK_MONOTONIC);
        c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    } else {
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            perror("syscall_loop: /dev/null");
            return 3;
        }
        static const char byte = 'x';
        c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        t0 = now_ns(CLOCK_MONOTONIC);
        for (long i = 0; i < n; i++)
            if (syscall(SYS_write, fd, &byte, 1) != 1) {
                perror("syscall_loop: write");
                return 3;
            }
        t1 = now_ns(CLOCK_MONOTONIC);
        c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    }
    printf("%s %ld %lld %.2f %lld %.2f\n", argv[1], n, t1 - t0, (double)(t1 - t0) / (double)n,
           c1 - c0, (double)(c1 - c0) / (double)n);
    return 0;
}
