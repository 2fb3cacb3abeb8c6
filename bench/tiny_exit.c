/* tiny_exit - the smallest possible program: no libc, exit_group(0).
 * Used as the sandboxed child when the supervisor's own peak memory is
 * measured: wait4()'s ru_maxrss covers the waited process AND its reaped
 * descendants, so the child must be negligible for the figure to be the
 * supervisor's own. */
void _start(void) __attribute__((noreturn, used));
void _start(void)
{
#if defined(__x86_64__)
    __asm__ volatile("mov $231, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "rax", "rdi", "memory");
#elif defined(__aarch64__)
    __asm__ volatile("mov x8, #94\n\tmov x0, #0\n\tsvc #0" ::: "x0", "x8", "memory");
#else
#error "tiny_exit: unsupported architecture"
#endif
    for (;;) {
    }
}
