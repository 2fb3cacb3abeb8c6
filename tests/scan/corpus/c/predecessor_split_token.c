/* expect: syscall@10 syscall@11 */
/* Bypass of the predecessor's regex scanner: a line splice splits the
 * forbidden name, which the compiler joins again. */
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(void)
{
    long pid = sys\
call(SYS_getpid);
    printf("%ld\n", pid);
    return 0;
}
