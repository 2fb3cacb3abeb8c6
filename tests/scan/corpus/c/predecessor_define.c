/* expect: syscall@6 asm@7 syscall@13 asm@14 syscall-insn@14 process@15 process@16 */
/* Bypass of the predecessor's scanner: the forbidden names only appear
 * through the preprocessor. */
#include <stdio.h>

#define S sys##call
#define X asm
#define CAT(a, b) a##b
#define RUN(cmd) CAT(sys, tem)(cmd)

int main(void)
{
    long r = S(39);
    X volatile("mov $60, %%eax\n\tsyscall" ::: "memory");
    RUN("id");
    CAT(for, k)();
    printf("%ld\n", r);
    return 0;
}
