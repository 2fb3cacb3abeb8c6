/*
 * The verdict of a run, from how it ended and what the supervisor saw.
 */
#include "internal.h"

#include <sys/wait.h>

static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGABRT || sig == SIGTRAP;
}

void sl_judge(const struct sandlock_policy *p, struct sandlock_result *r, int st,
	      const struct sl_ending *e)
{
	if (WIFEXITED(st)) {
		r->exit_code = WEXITSTATUS(st);
		r->signal = 0;
		r->status = r->exit_code;
	} else if (WIFSIGNALED(st)) {
		r->exit_code = -1;
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	}
	uint64_t cpu_ms = (r->user_us + r->sys_us) / 1000;
	uint64_t mem_kb = p->mem_mb * 1024;
	bool failed = r->exit_code != 0;
	if (e->violated) {
		r->verdict = SANDLOCK_SYSCALL_BLOCKED;
		r->exit_code = -1;
		r->signal = SIGSYS;
		r->status = 128 + SIGSYS;
	} else if (e->timed_out) {
		r->verdict = SANDLOCK_WALL_LIMIT;
		r->status = SANDLOCK_EXIT_TIMEOUT;
	} else if (e->over_output) {
		/* whatever the program did after, its output was cut */
		r->verdict = SANDLOCK_OUTPUT_LIMIT;
		r->status = 128 + SIGXFSZ;
	} else if (e->cancelled) {
		r->verdict = SANDLOCK_SIGNALED;
		if (r->cancel_signal)
			r->status = 128 + r->cancel_signal;
	} else if (e->over_cpu || (p->cpu_ms && cpu_ms >= p->cpu_ms)) {
		/* the whole run used it, whoever stopped it (us, a backstop, the
		 * program itself); a limit verdict needs the limit reached:
		 * raise(SIGXCPU) at 0 ms is only a signal */
		r->verdict = SANDLOCK_CPU_LIMIT;
		r->status = 128 + SIGXCPU; /* whatever killed it */
	} else if (e->over_mem || e->wasm_mem || (e->exec_too_big && r->signal)) {
		r->verdict = SANDLOCK_MEMORY_LIMIT;
		/* seen as it ended (files left in its tmpfs, an OOM kill of
		 * one of its processes): not a success to a caller's shell */
		if (r->status == 0)
			r->status = 128 + SIGKILL;
	} else if (((r->signal == SIGXFSZ || e->over_fsize) && (p->fsize_mb || p->fsize_bytes)) ||
		   e->over_disk) {
		r->verdict = SANDLOCK_FILE_SIZE_LIMIT;
		r->status = 128 + SIGXFSZ; /* whatever killed it */
	} else if (r->signal == SIGSYS && e->kernel_kills_violations) {
		r->verdict = SANDLOCK_SYSCALL_BLOCKED;
	} else if (failed && mem_kb &&
		   (e->mem_refused || (r->peak_kb > e->floor_kb && r->peak_kb * 10 >= mem_kb * 8)) &&
		   (r->signal == 0 || crash_signal(r->signal) || r->signal == SIGKILL)) {
		/* The kernel refused an allocation: a large one we saw coming
		 * (mem_refused), or the last of many small ones, after which
		 * most of the limit is in use.  The peak the kernel reports
		 * includes our own memory before exec (floor_kb): a program
		 * that never held more than that did not run out. */
		r->verdict = SANDLOCK_MEMORY_LIMIT;
	} else if (r->signal == 0) {
		r->verdict = r->exit_code == 0 ? SANDLOCK_OK_VERDICT : SANDLOCK_RUNTIME_ERROR;
	} else if (crash_signal(r->signal) || r->signal == SIGSYS) {
		r->verdict = SANDLOCK_RUNTIME_ERROR;
	} else {
		r->verdict = SANDLOCK_SIGNALED;
	}
}
