#define _GNU_SOURCE
/*
 * Simulate a host without some layer: install a seccomp filter (as a
 * container runtime or a serverless platform would) that makes the layer's
 * system calls fail, then exec the command.
 *   nolayer [landlock] [userns] [notify] [seccomp] [tmpfile] -- COMMAND...
 * Build: cc nolayer.c -lseccomp
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	int i = 1, r = 0;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "landlock")) {
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_create_ruleset), 0);
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_add_rule), 0);
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_restrict_self), 0);
		} else if (!strcmp(argv[i], "userns")) {
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
					      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
		} else if (!strcmp(argv[i], "notify")) {
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EOPNOTSUPP), SCMP_SYS(seccomp), 1,
					      SCMP_A0(SCMP_CMP_EQ, SECCOMP_GET_ACTION_AVAIL));
		} else if (!strcmp(argv[i], "tmpfile")) {
			/* a file system without O_TMPFILE (FUSE, older overlayfs) */
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EOPNOTSUPP), SCMP_SYS(openat), 1,
					      SCMP_A2(SCMP_CMP_MASKED_EQ, 020000000, 020000000));
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EOPNOTSUPP), SCMP_SYS(open), 1,
					      SCMP_A1(SCMP_CMP_MASKED_EQ, 020000000, 020000000));
		} else if (!strcmp(argv[i], "seccomp")) {
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(seccomp), 0);
			r |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(prctl), 1,
					      SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP));
		} else {
			fprintf(stderr, "nolayer: unknown layer %s\n", argv[i]);
			return 2;
		}
	}
	if (r || i + 1 >= argc) {
		fprintf(stderr, "usage: nolayer LAYER... -- COMMAND...\n");
		return 2;
	}
	if (seccomp_load(c) != 0) {
		perror("nolayer: seccomp_load");
		return 2;
	}
	execvp(argv[i + 1], argv + i + 1);
	perror("nolayer: exec");
	return 127;
}
