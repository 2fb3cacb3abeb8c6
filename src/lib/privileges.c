/*
 * Dropping root.  Started as root, the child becomes the policy's uid/gid
 * (65534 by default) with no supplementary groups and the effective,
 * permitted, inheritable and ambient capability sets empty.  Raw system
 * calls: the child shares the supervisor's memory, and the libc wrappers
 * would try to change the credentials of every thread of the supervisor.
 *
 * The bounding set is left alone.  It only caps what an execve may grant,
 * and no-new-privs (set earlier, always) already caps that at what the
 * process holds, which is nothing: a set-user-ID or file-capability binary
 * gains nothing.  Emptying it costs one credential copy per capability,
 * about 80 us per run, for no protection on top.
 */
#include "internal.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

SL_CHILD int sl_privileges_drop(const struct sl_run *run)
{
	if (!run->drop_privs)
		return 0;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
		return -1;
	if (syscall(SYS_setgroups, 0, NULL) != 0)
		return -1;
	if (syscall(SYS_setresgid, run->gid, run->gid, run->gid) != 0)
		return -1;
	if (syscall(SYS_setresuid, run->uid, run->uid, run->uid) != 0)
		return -1;
	/* Leaving uid 0 clears effective and permitted; inheritable stays. */
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (syscall(SYS_capset, &h, d) != 0)
		return -1;
	/* check: there is no way back */
	if (syscall(SYS_setresuid, 0, 0, 0) == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/*
 * The supervisor reads the run's /proc/PID/fd, maps and smaps_rollup as
 * the run's uid: the kernel lets the same uid read them (ptrace read
 * access), and a container's root, without CAP_SYS_PTRACE, not as root.
 * A run in a user namespace of its own (the shipped profile with /proc
 * masked, Podman's profile) is in another namespace, where only the euid
 * that made it passes: so as root the euid too (the real and saved uids
 * stay 0: the run cannot signal or trace us meanwhile), on this thread
 * only, with the raw calls as above.  Not root: the fsuid.
 */
void sl_as_run(uid_t uid, gid_t gid, struct sl_as *s)
{
	s->root = geteuid() == 0;
	if (s->root) {
		syscall(SYS_setresgid, -1, gid, -1);
		syscall(SYS_setresuid, -1, uid, -1);
	} else {
		s->fsgid = (int)syscall(SYS_setfsgid, gid);
		s->fsuid = (int)syscall(SYS_setfsuid, uid);
	}
}

void sl_as_self(const struct sl_as *s)
{
	if (s->root) {
		syscall(SYS_setresuid, -1, 0, -1);
		syscall(SYS_setresgid, -1, 0, -1);
	} else {
		syscall(SYS_setfsuid, s->fsuid);
		syscall(SYS_setfsgid, s->fsgid);
	}
}
