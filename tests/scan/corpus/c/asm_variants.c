/* expect: exec-memory@4 asm@9 syscall-insn@9 asm@15 syscall-insn@15 asm@20 */
#include <stdio.h>

__attribute__((section(".text"))) static const unsigned char blob[] = {0x90, 0xc3};

static long raw_getpid(void)
{
    long r;
    __asm__ __volatile__("int $0x80" : "=a"(r) : "a"(20));
    return r;
}

static void bytes(void)
{
    __asm(".byte 0x0f, 0x05");
}

int main(void)
{
    asm("nop");
    bytes();
    printf("%ld %d\n", raw_getpid(), blob[0]);
    return 0;
}
