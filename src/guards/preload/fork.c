/* New processes of the same program: refused under "fork 0" (EPERM);
 * threads (clone with CLONE_THREAD) always go.  vfork cannot be wrapped
 * by a C function (the child would return through the frame the parent
 * still needs): a few instructions jump straight to libc's. */
#include "preload.h"

#include <errno.h>
#include <pty.h>
#include <sched.h>
#include <stdarg.h>
#include <termios.h>
#include <unistd.h>

pid_t _Fork(void);

void *sl_vfork_real;

static int refuse(const char *op)
{
	sl_say(op, NULL, "fork 0");
	errno = EPERM;
	return -1;
}

SL_EXPORT pid_t fork(void)
{
	sl_ensure();
	return sl.fork ? REAL(fork)() : refuse("fork");
}

SL_EXPORT pid_t _Fork(void)
{
	sl_ensure();
	return sl.fork ? REAL(_Fork)() : refuse("_Fork");
}

/* vfork before init, or refused: a plain fork is a valid vfork */
__attribute__((used)) pid_t sl_vfork_slow(void)
{
	sl_ensure();
	return sl.fork ? REAL(fork)() : refuse("vfork");
}

#if defined(__x86_64__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	"vfork:\n"
	"	movq sl_vfork_real(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	jz 1f\n"
	"	jmp *%rax\n"
	"1:	jmp sl_vfork_slow\n"
	".size vfork, .-vfork\n"
	".globl __vfork\n"
	".set __vfork, vfork\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, %function\n"
	"vfork:\n"
	"	adrp x16, sl_vfork_real\n"
	"	ldr x16, [x16, :lo12:sl_vfork_real]\n"
	"	cbz x16, 1f\n"
	"	br x16\n"
	"1:	b sl_vfork_slow\n"
	".size vfork, .-vfork\n"
	".globl __vfork\n"
	".set __vfork, vfork\n");
#else
SL_EXPORT pid_t vfork(void)
{
	return sl_vfork_slow();
}
#endif

SL_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	sl_ensure();
	if (!(flags & CLONE_THREAD) && !sl.fork)
		return refuse("clone");
	return REAL(clone)(fn, stack, flags, arg, ptid, tls, ctid);
}

SL_EXPORT int daemon(int nochdir, int noclose)
{
	sl_ensure();
	return sl.fork ? REAL(daemon)(nochdir, noclose) : refuse("daemon");
}

SL_EXPORT pid_t forkpty(int *amaster, char *name, const struct termios *termp,
			const struct winsize *winp)
{
	sl_ensure();
	return sl.fork ? REAL(forkpty)(amaster, name, termp, winp) : refuse("forkpty");
}
