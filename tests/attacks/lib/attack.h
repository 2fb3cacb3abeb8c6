/* Helpers shared by the C attacks (test code, not part of sandlock).
 * Every attack is run as:  ATTACK EV key=value...   (EV = evidence dir)
 * and prints ATTACK-STARTED first, so the runner knows it really ran. */
#ifndef SANDLOCK_ATTACK_H
#define SANDLOCK_ATTACK_H
#pragma GCC diagnostic ignored "-Wunused-function"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *EV = ".";
static int g_argc;
static char **g_argv;

static const char *arg(const char *key)
{
	size_t n = strlen(key);
	for (int i = 2; i < g_argc; i++)
		if (!strncmp(g_argv[i], key, n) && g_argv[i][n] == '=')
			return g_argv[i] + n + 1;
	return NULL;
}

static long arg_long(const char *key)
{
	const char *v = arg(key);
	return v ? strtol(v, NULL, 0) : -1;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void say(const char *fmt, ...)
{
	char b[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof b - 1)
		n = sizeof b - 1;
	if (n > 0 && write(1, b, n) < 0) {}
}

static void attack_init(int argc, char **argv)
{
	g_argc = argc;
	g_argv = argv;
	if (argc > 1)
		EV = argv[1];
	say("ATTACK-STARTED\n");
}

static void evpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", EV, name);
}

/* Leave a canary file in EV (the attack's own proof of a side effect). */
static int canary(const char *name, const char *content)
{
	char p[1024];
	evpath(p, sizeof p, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0) {
		say("canary %s: %s\n", p, strerror(errno));
		return -1;
	}
	if (content && write(fd, content, strlen(content)) < 0) {}
	close(fd);
	return 0;
}

/* Hold a shared flock on EV/alive.lock for as long as this process (and
 * whatever inherits the descriptor) lives: the runner's survivor check. */
static int hold_alive_lock(void)
{
	char p[1024];
	evpath(p, sizeof p, "alive.lock");
	int fd = open(p, O_RDONLY);
	if (fd < 0 || flock(fd, LOCK_SH) != 0)
		return -1;
	return fd;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

/* Signal used against a victim when the target set is "everything": SIGKILL
 * only where the blast radius is known to be the test's own uid (the runner,
 * as root, runs these under a fresh uid); SIGCONT (harmless; the victim's
 * handler records it) whenever we share our uid with the runner itself. */
static int broadcast_signal(void)
{
	long ruid = arg_long("runner_uid");
	uid_t me = getuid();
	if (me != 0 && ruid >= 0 && (long)me != ruid && arg("iso_uid") && (long)me == arg_long("iso_uid"))
		return SIGKILL;
	return SIGCONT;
}

static int read_victim_addrs(unsigned long *secret, unsigned long *flag)
{
	const char *s = arg("victim_addr"), *fl = arg("victim_flag");
	if (!s || !fl)
		return -1;
	*secret = strtoul(s, NULL, 0);
	*flag = strtoul(fl, NULL, 0);
	return 0;
}

#include <sched.h>
#include <sys/mount.h>
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Gain CAP_SYS_ADMIN over a private mount namespace: directly when root,
 * otherwise through a new user namespace. Never touches the host's mounts.
 * Returns -1 if neither works (the caller still tries its operation, to
 * exercise the syscall filter itself; the runner unmounts leftovers). */
static int enter_mount_ns(void)
{
	uid_t u = getuid();
	gid_t g = getgid();
	char b[64];
	if (unshare(CLONE_NEWNS) != 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
			say("unshare(NEWUSER|NEWNS): %s\n", strerror(errno));
			return -1;
		}
		write_str("/proc/self/setgroups", "deny");
		snprintf(b, sizeof b, "0 %u 1", u);
		write_str("/proc/self/uid_map", b);
		snprintf(b, sizeof b, "0 %u 1", g);
		write_str("/proc/self/gid_map", b);
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		say("make-rprivate: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}
#endif

#include <sys/ioctl.h>
#include <termios.h>
/* A descriptor of the runner's terminal (the launcher's pty, marked by its
 * pixel size 4242x4243): one of ours, the controlling terminal, or any
 * /dev/pts entry we can open by name.  Never touches another terminal.
 * -1 when none is reachable. */
static int marked_tty(int fd)
{
	struct winsize ws;
	return ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_xpixel == 4242 && ws.ws_ypixel == 4243;
}

static int grader_tty(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (marked_tty(fd))
			return fd;
	char path[32];
	for (int i = -1; i < 256; i++) {
		if (i < 0)
			snprintf(path, sizeof path, "/dev/tty");
		else
			snprintf(path, sizeof path, "/dev/pts/%d", i);
		int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (marked_tty(fd)) {
			say("terminal reached through %s\n", path);
			return fd;
		}
		close(fd);
	}
	return -1;
}

/* The same, or the attack ends here (exit 1: nothing to attack). */
static int need_grader_tty(void)
{
	int t = grader_tty();
	if (t < 0) {
		say("no terminal\n");
		exit(1);
	}
	return t;
}
