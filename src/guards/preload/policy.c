/* The policy: "r PATH" / "w PATH" rules, the longest matching prefix (on a
 * component boundary) decides, w implies r, no rule means refused. */
#include "preload.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct rule {
	const char *path;	/* for a /proc/self rule: what follows /proc/self */
	size_t len;
	int write;
	int proc_self;		/* "/proc/self" means the checking process's /proc/PID */
};

static struct rule *rules;
static int nrules;

static void *grab(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int flag(const char *v)
{
	return !strcmp(v, "1");
}

/* Keeps its own copy, immutable once parsed: the hooks read it without locks. */
int sl_policy_parse(const char *text)
{
	size_t len = strlen(text);
	char *copy = grab(len + 1);
	size_t lines = 1;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	struct rule *r = grab(lines * sizeof(*r));
	if (!copy || !r)
		return -1;
	memcpy(copy, text, len + 1);
	int n = 0;
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		char *val = strchr(line, ' ');
		if (!val)
			continue;
		*val++ = 0;
		if (!strcmp(line, "net"))
			sl.net = flag(val);
		else if (!strcmp(line, "fork"))
			sl.fork = flag(val);
		else if (!strcmp(line, "exec"))
			sl.exec = flag(val);
		else if ((!strcmp(line, "r") || !strcmp(line, "w")) && val[0] == '/') {
			size_t l = strlen(val);
			while (l > 1 && val[l - 1] == '/')
				val[--l] = 0;
			int self = !strncmp(val, "/proc/self", 10) && (!val[10] || val[10] == '/');
			r[n].path = self ? val + 10 : val;
			r[n].len = self ? l - 10 : l;
			r[n].write = line[0] == 'w';
			r[n].proc_self = self;
			n++;
		}
	}
	rules = r;
	nrules = n;
	return 0;
}

/* p is "/" or under it, or it is a directory above path (for SL_STAT) */
static int covers(const char *p, size_t plen, const char *path)
{
	if (plen == 1)
		return 1;
	return !strncmp(path, p, plen) && (path[plen] == 0 || path[plen] == '/');
}

static int above(const char *path, const char *p)
{
	size_t l = strlen(path);
	if (l == 1)
		return 1;
	return !strncmp(p, path, l) && p[l] == '/';
}

/* "/proc/PID" into buf (no stdio: this runs in vfork children too) */
size_t sl_proc_pid(char *buf, int pid)
{
	char digits[16];
	int n = 0;
	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) && n < 15);
	memcpy(buf, "/proc/", 6);
	for (int i = 0; i < n; i++)
		buf[6 + i] = digits[n - 1 - i];
	buf[6 + n] = 0;
	return 6 + (size_t)n;
}

int sl_allowed(const char *path, enum sl_access acc)
{
	if (!sl.have_policy || path[0] != '/')
		return 0;
	char self[PATH_MAX + 32];
	int pid = -1;
	size_t best = 0;
	int found = 0, write = 0, on_the_way = 0;
	for (int i = 0; i < nrules; i++) {
		const char *p = rules[i].path;
		size_t plen = rules[i].len;
		if (rules[i].proc_self) {
			if (pid < 0)
				pid = sl_getpid();
			size_t k = sl_proc_pid(self, pid);
			if (k + plen >= sizeof(self))
				continue;
			memcpy(self + k, p, plen + 1);
			p = self;
			plen += k;
		}
		if (covers(p, plen, path)) {
			if (!found || plen > best) {
				best = plen;
				write = rules[i].write;
			} else if (plen == best) {
				write |= rules[i].write;
			}
			found = 1;
		} else if (acc == SL_STAT && above(path, p)) {
			on_the_way = 1;
		}
	}
	if (found)
		return acc == SL_WRITE ? write : 1;
	return acc == SL_STAT && on_the_way;
}
