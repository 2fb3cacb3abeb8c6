/* What this kernel offers, probed without side effects. */
#include "internal.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static bool action_avail(uint32_t action)
{
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

static int userns_child(void *arg)
{
	(void)arg;
	return 0;
}

/* Can this process create a user namespace?  Only a real attempt tells
 * (sysctls, AppArmor, a container's own seccomp profile all decide). */
static bool probe_userns(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	pid_t pid = clone(userns_child, stack + sizeof(stack),
			  CLONE_NEWUSER | SIGCHLD, NULL);
	if (pid < 0)
		return false;
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

void sl_probe_features(struct sandlock_features *f, bool full)
{
	memset(f, 0, sizeof(*f));
	/* seccomp: a filter mode query that changes nothing */
	f->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 &&
		     (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) < 0 && errno == EFAULT);
	if (f->seccomp) {
		f->seccomp_kill_process = action_avail(SECCOMP_RET_KILL_PROCESS);
		f->seccomp_notify = action_avail(SECCOMP_RET_USER_NOTIF);
		f->seccomp_log = action_avail(SECCOMP_RET_LOG);
	}
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1UL /* VERSION */);
	f->landlock_abi = abi > 0 ? (int)abi : 0;
	f->pdeathsig = prctl(PR_GET_PDEATHSIG, &(int){ 0 }, 0, 0, 0) == 0;
	if (!full)
		return; /* a run needs no more; the rest is for --features */
	/* close_range on an empty range: ENOSYS if missing */
	f->close_range = syscall(SYS_close_range, ~0U, ~0U, 0) == 0 || errno != ENOSYS;
	long pfd = syscall(SYS_pidfd_open, getpid(), 0);
	f->pidfd = pfd >= 0;
	if (pfd >= 0)
		close((int)pfd);
	f->userns = probe_userns();
}

void sandlock_probe_features(struct sandlock_features *f)
{
	sl_probe_features(f, true);
}

void sandlock_print_features(const struct sandlock_features *f, int fd)
{
	dprintf(fd, "seccomp: %s (kill_process %s, log %s)\n",
		f->seccomp ? "yes" : "no", f->seccomp_kill_process ? "yes" : "no",
		f->seccomp_log ? "yes" : "no");
	dprintf(fd, "seccomp_notify: %s\n", f->seccomp_notify ? "yes" : "no");
	if (f->landlock_abi)
		dprintf(fd, "landlock: yes (ABI %d)\n", f->landlock_abi);
	else
		dprintf(fd, "landlock: no\n");
	dprintf(fd, "landlock_net: %s\n", f->landlock_abi >= 4 ? "yes" : "no");
	dprintf(fd, "landlock_scope: %s\n", f->landlock_abi >= 6 ? "yes" : "no");
	dprintf(fd, "userns: %s\n", f->userns ? "yes" : "no");
	dprintf(fd, "pidns: %s\n", f->userns ? "yes" : "no");
	dprintf(fd, "netns: %s\n", f->userns ? "yes" : "no");
	dprintf(fd, "pdeathsig: %s\n", f->pdeathsig ? "yes" : "no");
	dprintf(fd, "close_range: %s\n", f->close_range ? "yes" : "no");
	dprintf(fd, "pidfd: %s\n", f->pidfd ? "yes" : "no");
}
