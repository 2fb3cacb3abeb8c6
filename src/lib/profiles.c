/*
 * Language profiles: a judge's settings for compiling and for running a
 * submission in one language, written as policy options (options.c), one
 * per line, so that a profile says nothing the command line could not.
 *
 *     # a comment
 *     no-network          an option of sandlock(1) without its dashes
 *     cpu 2               ... and its value
 *     ro? /etc/java-*     --ro for each path that exists here (a glob):
 *                         a toolchain's files are where this host has them
 *     rw @workdir         the program's working directory (landlock.c)
 *     [compile]           the lines below are for the compile step only
 *     [run]               ... for the run step only
 *
 * Lines before the first section are for both steps.  The built-in ones
 * are below; sandlock --show-profile NAME prints one to start an
 * operator's own from.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What every toolchain and runtime reads to start (the defaults of
 * --landlock, which a profile's own paths replace), and the rules of a
 * judge: no network, a clean environment, a private scratch space. */
#define BASE \
	"no-network\n" \
	"clean-env\n" \
	"isolate-tmp\n" \
	"landlock\n" \
	"ro /usr\n" \
	"ro? /bin\nro? /sbin\nro? /lib\nro? /lib32\nro? /lib64\nro? /libx32\n" \
	"ro? /etc/ld.so.cache\nro? /etc/localtime\nro? /etc/nsswitch.conf\n" \
	"ro? /etc/passwd\nro? /etc/group\nro? /etc/ssl\n" \
	"ro? /dev/urandom\nro? /dev/random\nro? /dev/zero\nrw? /dev/null\n" \
	"ro? /proc/cpuinfo\nro? /proc/meminfo\nro? /proc/stat\n" \
	"ro? /sys/devices/system/cpu\nro? /proc/sys/vm/overcommit_memory\n"

/* Compilers fork their passes and write the program into the working
 * directory; the program runs alone, may not start anything, and may
 * only read its directory. */
#define COMPILE_NATIVE \
	"[compile]\n" \
	"rw @workdir\n" \
	"nproc 32\n" \
	"fsize 64\n" \
	"max-output 1048576\n"
#define RUN_ALONE \
	"[run]\n" \
	"ro @workdir\n" \
	"no-fork\n" \
	"no-exec\n"

/* Every run step has a wall clock of three times its CPU limit: a
 * submission that sleeps or waits for input that never comes holds no
 * grader for longer (timeout_ms, verdict wall_limit), and one that computes
 * has room for a loaded machine.  A command line's --timeout replaces it. */
#define RUN_WALL(s) \
	"# wall clock: 3 x the CPU limit (a program that sleeps is stopped)\n" \
	"timeout " #s "\n"

static const struct { const char *name, *text; } builtin[] = {
	{ "c",
	  "# C: gcc or clang, then the program\n" BASE
	  COMPILE_NATIVE
	  "cpu 10\nmem 512\ntimeout 30\n"
	  RUN_ALONE
	  "cpu 2\nmem 256\n" RUN_WALL(6) },
	{ "cpp",
	  "# C++: g++ or clang++ (templates take more), then the program\n" BASE
	  COMPILE_NATIVE
	  "cpu 20\nmem 1024\ntimeout 60\n"
	  RUN_ALONE
	  "cpu 2\nmem 256\n" RUN_WALL(6) },
	{ "python",
	  "# Python 3: py_compile checks the source, then the interpreter runs it\n" BASE
	  "ro? /etc/python3*\n"
	  "env PYTHONDONTWRITEBYTECODE=1\n"
	  "[compile]\n"
	  "# py_compile writes __pycache__ next to the source\n"
	  "rw @workdir\n"
	  "cpu 5\nmem 256\ntimeout 10\n"
	  "[run]\n"
	  "ro @workdir\n"
	  "no-fork\nno-exec\n"
	  "# numpy's BLAS starts a thread per CPU\n"
	  "nproc 64\n"
	  "cpu 2\nmem 256\n" RUN_WALL(6) },
	{ "java",
	  "# Java: javac, then the JVM: threads for its GC and JIT compilers, and\n"
	  "# a heap sized for the step's --mem (MaxRAM), not for the host's RAM:\n"
	  "# change both together\n" BASE
	  "ro? /etc/java-*\nro? /usr/lib/jvm\n"
	  "nproc 128\n"
	  "[compile]\n"
	  "rw @workdir\n"
	  "env JAVA_TOOL_OPTIONS=-XX:+UseSerialGC -XX:MaxRAM=1g -XX:MaxRAMPercentage=50\n"
	  "cpu 20\nmem 1024\ntimeout 60\nfsize 64\nmax-output 1048576\n"
	  "[run]\n"
	  "ro @workdir\n"
	  "no-fork\nno-exec\n"
	  "env JAVA_TOOL_OPTIONS=-XX:+UseSerialGC -XX:MaxRAM=512m -XX:MaxRAMPercentage=50 "
	  "-XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=48m\n"
	  "cpu 4\nmem 512\n" RUN_WALL(12) },
	{ "node",
	  "# JavaScript on Node.js: node --check, then node (JIT, worker threads)\n" BASE
	  "nproc 64\n"
	  "[compile]\n"
	  "ro @workdir\n"
	  "cpu 5\nmem 512\ntimeout 10\n"
	  "[run]\n"
	  "ro @workdir\n"
	  "no-fork\nno-exec\n"
	  "cpu 2\nmem 512\n" RUN_WALL(6) },
	{ "go",
	  "# Go: go build with its cache in the private scratch space (HOME),\n"
	  "# offline, without cgo; then the static program (runtime threads)\n" BASE
	  "ro? /usr/local/go\n"
	  "nproc 64\n"
	  "[compile]\n"
	  "rw @workdir\n"
	  "env GOTOOLCHAIN=local\nenv GOPROXY=off\nenv CGO_ENABLED=0\n"
	  "# a cold cache builds the standard library first\n"
	  "cpu 120\nmem 2048\ntimeout 180\nfsize 256\nmax-output 1048576\n"
	  "[run]\n"
	  "ro @workdir\n"
	  "no-fork\nno-exec\n"
	  "cpu 2\nmem 256\n" RUN_WALL(6) },
};

const char *sandlock_profile_text(const char *name)
{
	for (size_t i = 0; name && i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (!strcmp(builtin[i].name, name))
			return builtin[i].text;
	return NULL;
}

const char *sandlock_profile_names(void)
{
	return "c, cpp, go, java, node, python";
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return SANDLOCK_EINVAL; } while (0)

/* ro? / rw?: each existing path the pattern names, none if none. */
static int add_present(struct sandlock_policy *p, const char *opt, const char *pattern,
		       char *err, size_t errlen)
{
	glob_t g;
	int r = glob(pattern, GLOB_NOSORT, NULL, &g);
	if (r == GLOB_NOMATCH)
		return SANDLOCK_OK;
	if (r != 0)
		FAIL("cannot expand '%s'", pattern);
	int ret = SANDLOCK_OK;
	for (size_t i = 0; i < g.gl_pathc && ret == SANDLOCK_OK; i++)
		if (access(g.gl_pathv[i], F_OK) == 0)
			ret = sandlock_policy_set(p, opt, g.gl_pathv[i], err, errlen);
	globfree(&g);
	return ret;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

static int apply_text(struct sandlock_policy *p, const char *label, char *text, const char *step,
		      char *err, size_t errlen)
{
	char section[16] = "";
	int line = 0;
	char msg[256];
	/* strtok_r would skip empty lines, and count them wrong */
	for (char *l = text, *next; l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = 0;
		line++;
		char *s = trim(l);
		if (!*s || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end || end[1] || (size_t)(end - s - 1) >= sizeof(section))
				FAIL("profile %s line %d: a section is [compile] or [run]", label, line);
			*end = 0;
			if (strcmp(s + 1, "compile") && strcmp(s + 1, "run"))
				FAIL("profile %s line %d: unknown section [%s] ([compile] or [run])",
				     label, line, s + 1);
			strcpy(section, s + 1);
			continue;
		}
		if (*section && strcmp(section, step))
			continue;
		char *value = s + strcspn(s, " \t");
		if (*value) {
			*value++ = 0;
			value = trim(value);
		}
		size_t kl = strlen(s);
		bool optional = kl && s[kl - 1] == '?';
		if (optional)
			s[kl - 1] = 0;
		const struct sl_policy_option *o = sl_policy_option(s);
		if (!o)
			FAIL("profile %s line %d: unknown option '%s' (the long options of sandlock(1), "
			     "without their dashes)", label, line, s);
		if (!o->in_profile)
			FAIL("profile %s line %d: '%s' names one run's files: give it on the command line",
			     label, line, s);
		if (optional && strcmp(s, "ro") && strcmp(s, "rw") && strcmp(s, "allow"))
			FAIL("profile %s line %d: only ro? and rw? may be optional", label, line);
		int r = optional ? add_present(p, s, value, msg, sizeof(msg))
				 : sandlock_policy_set(p, s, *value ? value : NULL, msg, sizeof(msg));
		if (r != SANDLOCK_OK)
			FAIL("profile %s line %d: %s", label, line, msg);
	}
	return SANDLOCK_OK;
}

int sandlock_policy_apply_profile(struct sandlock_policy *p, const char *profile,
				  const char *step, char *err, size_t errlen)
{
	if (!step)
		step = "run";
	if (strcmp(step, "run") && strcmp(step, "compile"))
		FAIL("unknown step '%s' (compile or run)", step);
	if (!profile || !*profile)
		FAIL("no profile named");
	const char *text = sandlock_profile_text(profile);
	char *buf = NULL;
	if (text) {
		buf = strdup(text);
	} else if (strchr(profile, '/')) {
		/* an operator's own: small, plain text */
		int fd = open(profile, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			FAIL("cannot open profile %s: %s", profile, strerror(errno));
		size_t cap = 65536, len = 0;
		buf = malloc(cap + 1);
		ssize_t n = 1;
		while (buf && len < cap && (n = read(fd, buf + len, cap - len)) > 0)
			len += (size_t)n;
		char extra;
		bool more = buf && len == cap && read(fd, &extra, 1) > 0;
		close(fd);
		if (buf && (n < 0 || more || memchr(buf, 0, len))) {
			free(buf);
			FAIL("profile %s: %s", profile, n < 0 ? strerror(errno)
				: more ? "longer than 64 KiB" : "not a text file");
		}
		if (buf)
			buf[len] = 0;
	} else {
		FAIL("unknown profile '%s' (built in: %s; or a file, as a path with a '/')",
		     profile, sandlock_profile_names());
	}
	if (!buf)
		FAIL("out of memory");
	int r = apply_text(p, profile, buf, step, err, errlen);
	free(buf);
	return r;
}
