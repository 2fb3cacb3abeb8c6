/* reap RUN: kill what a test run left behind (test code, not sandlock).
 *
 * A process belongs to the run when its command line, executable, working
 * directory or any open file points into the run's private directory RUN, or
 * when it holds the flock on RUN/ev/alive.lock (per /proc/locks). Such
 * processes are identified exactly and killed by pid, repeatedly, until none
 * is left (at most 40 rounds). Prints how many it killed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *run;
static size_t runlen;

static int under(const char *p)
{
	return !strncmp(p, run, runlen) && (p[runlen] == 0 || p[runlen] == '/');
}

static int belongs(const char *pid)
{
	char p[512], t[4096];
	snprintf(p, sizeof p, "/proc/%s/cmdline", pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	size_t n = fread(t, 1, sizeof t - 1, f);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (!t[i])
			t[i] = ' ';
	t[n] = 0;
	if (memmem(t, n, run, runlen))
		return 1;
	const char *links[] = { "exe", "cwd" };
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "/proc/%s/%s", pid, links[i]);
		ssize_t l = readlink(p, t, sizeof t - 1);
		if (l > 0) {
			t[l] = 0;
			if (under(t))
				return 1;
		}
	}
	snprintf(p, sizeof p, "/proc/%s/fd", pid);
	DIR *d = opendir(p);
	if (!d)
		return 0;
	struct dirent *e;
	int hit = 0;
	while (!hit && (e = readdir(d))) {
		char q[1024];
		snprintf(q, sizeof q, "%s/%s", p, e->d_name);
		ssize_t l = readlink(q, t, sizeof t - 1);
		if (l > 0) {
			t[l] = 0;
			hit = under(t);
		}
	}
	closedir(d);
	return hit;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	run = argv[1];
	runlen = strlen(run);
	while (runlen > 1 && run[runlen - 1] == '/')
		runlen--;
	char lock[4096];
	snprintf(lock, sizeof lock, "%.*s/ev/alive.lock", (int)runlen, run);
	struct stat st;
	unsigned long ino = stat(lock, &st) == 0 ? st.st_ino : 0;
	pid_t self = getpid(), parent = getppid();
	int killed = 0;
	for (int round = 0; round < 40; round++) {
		int found = 0;
		DIR *d = opendir("/proc");
		struct dirent *e;
		while (d && (e = readdir(d))) {
			pid_t pid = atoi(e->d_name);
			if (pid <= 1 || pid == self || pid == parent)
				continue;
			if (belongs(e->d_name)) {
				if (kill(pid, SIGKILL) == 0)
					killed++;
				found++;
			}
		}
		if (d)
			closedir(d);
		FILE *f = ino ? fopen("/proc/locks", "r") : NULL;
		char line[512];
		while (f && fgets(line, sizeof line, f)) {
			char *a = strstr(line, "->") ? strstr(line, "->") + 2 : strchr(line, ':') + 1;
			char type[32], adv[32], mode[32], dev[64];
			int pid;
			if (sscanf(a, "%31s %31s %31s %d %63s", type, adv, mode, &pid, dev) != 5)
				continue;
			char *c = strrchr(dev, ':');
			if (c && strtoul(c + 1, NULL, 10) == ino && pid > 1 && pid != self && pid != parent) {
				if (kill(pid, SIGKILL) == 0) {
					killed++;
					found++;
				}
			}
		}
		if (f)
			fclose(f);
		if (!found)
			break;
		usleep(50000);
	}
	printf("%d\n", killed);
	return 0;
}
