/* launch: the attack suite's own process launcher (not part of sandlock).
 *
 *   launch [-t MS] [-s STATUS] [-o OUT] [-P] [-e ERR] [-i IN | -U | -T TTYIN]
 *          [-R READY -X self|child] -- CMD ARGS...
 *
 * Runs CMD in its own process group with stdout on OUT (-P: through a pipe
 * that launch relays into OUT), kills the group with SIGKILL after MS milliseconds, and writes the raw
 * kernel view of how it ended into STATUS:
 *     exit N | signal N        (from wait4; a killed sandbox shows "signal N")
 *     code N                   (N, or 128+S)
 *     timeout 0|1
 *     wall_ms N
 *     maxrss_kb N              (ru_maxrss of the child and what it reaped)
 * STATUS is written only at the end: a missing STATUS file means launch itself
 * was killed (that is the evidence of "kill the parent" attacks in bare runs).
 *   -P  stdout is a pipe (relayed by launch; lost if launch is killed)
 *   -U  stdin is an unconnected AF_UNIX SOCK_DGRAM socket (inherited socket)
 *   -T  the child runs on a fresh pty as its controlling tty; after it ends,
 *       whatever was injected into the tty's input queue is saved in TTYIN.
 *       The pty starts raw, with the window size 37x113 and pixel size
 *       4242x4243 (a mark attacks use to find it by name under /dev/pts);
 *       STATUS then also holds "tty_winsize ROWSxCOLSxXPxYP" and
 *       "tty_lflag N" as they were at the end
 *   -R/-X  when READY appears, SIGKILL launch itself or its direct child
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void copy_out(int from, int to)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(from, buf, sizeof buf);
		if (n <= 0)
			return;
		if (to >= 0) {
			char *p = buf;
			while (n > 0) {
				ssize_t w = write(to, p, n);
				if (w <= 0)
					break;
				p += w;
				n -= w;
			}
		}
	}
}

int main(int argc, char **argv)
{
	long timeout = 10000;
	const char *status = NULL, *out = NULL, *err = NULL, *in = NULL, *ttyin = NULL;
	const char *ready = NULL, *xwho = NULL;
	int usock = 0, usepipe = 0, c;

	while ((c = getopt(argc, argv, "+t:s:o:e:i:PUT:R:X:")) != -1) {
		switch (c) {
		case 't': timeout = atol(optarg); break;
		case 's': status = optarg; break;
		case 'o': out = optarg; break;
		case 'e': err = optarg; break;
		case 'i': in = optarg; break;
		case 'U': usock = 1; break;
		case 'P': usepipe = 1; break;
		case 'T': ttyin = optarg; break;
		case 'R': ready = optarg; break;
		case 'X': xwho = optarg; break;
		default: fprintf(stderr, "launch: bad usage\n"); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "launch: no command\n");
		return 2;
	}

	int outfd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	int errfd = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	int pfd[2] = { -1, -1 }, master = -1, slave = -1;

	if (ttyin) {
		master = posix_openpt(O_RDWR | O_NOCTTY);
		if (master < 0 || grantpt(master) || unlockpt(master)) {
			perror("launch: pty");
			return 2;
		}
		slave = open(ptsname(master), O_RDWR | O_NOCTTY);
		if (slave < 0) {
			perror("launch: pty slave");
			return 2;
		}
		struct termios t;
		tcgetattr(slave, &t);
		cfmakeraw(&t);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(slave, TCSANOW, &t);
		struct winsize ws = { 37, 113, 4242, 4243 };
		ioctl(master, TIOCSWINSZ, &ws);
	} else if (usepipe && pipe2(pfd, O_CLOEXEC)) {
		perror("launch: pipe");
		return 2;
	}

	long t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		perror("launch: fork");
		return 2;
	}
	if (pid == 0) {
		if (ttyin) {
			setsid();
			ioctl(slave, TIOCSCTTY, 0);
			dup2(slave, 0);
			dup2(slave, 1);
			if (errfd >= 0)
				dup2(errfd, 2);
			else
				dup2(slave, 2);
			close(slave);
			close(master);
		} else {
			setpgid(0, 0);
			int ifd;
			if (usock)
				ifd = socket(AF_UNIX, SOCK_DGRAM, 0);
			else
				ifd = open(in ? in : "/dev/null", O_RDONLY);
			if (ifd < 0) {
				perror("launch: stdin");
				_exit(2);
			}
			dup2(ifd, 0);
			if (ifd != 0)
				close(ifd);
			if (usepipe)
				dup2(pfd[1], 1);
			else if (outfd >= 0)
				dup2(outfd, 1);
			if (errfd >= 0)
				dup2(errfd, 2);
		}
		execvp(argv[optind], argv + optind);
		perror("launch: exec");
		_exit(127);
	}
	if (!ttyin)
		setpgid(pid, pid); /* (in tty mode the child makes its own session) */
	int rfd = ttyin ? master : pfd[0];
	if (usepipe)
		close(pfd[1]);
	if (rfd >= 0)
		fcntl(rfd, F_SETFL, O_NONBLOCK);

	int st = 0, timed_out = 0, fired = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	for (;;) {
		struct pollfd p = { .fd = rfd, .events = POLLIN };
		if (rfd >= 0)
			poll(&p, 1, 10);
		else
			usleep(10000);
		if (rfd >= 0 && (p.revents & POLLIN))
			copy_out(rfd, outfd);
		pid_t r = wait4(pid, &st, WNOHANG, &ru);
		if (r == pid)
			break;
		if (ready && !fired && access(ready, F_OK) == 0) {
			fired = 1;
			usleep(50000);
			if (xwho && strcmp(xwho, "self") == 0)
				raise(SIGKILL);
			kill(pid, SIGKILL);
		}
		if (!timed_out && now_ms() - t0 > timeout) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	long wall = now_ms() - t0;
	/* drain what is left, but do not wait for survivors holding the pipe */
	long tend = now_ms() + 200;
	while (rfd >= 0 && now_ms() < tend) {
		struct pollfd p = { .fd = rfd, .events = POLLIN };
		if (poll(&p, 1, 20) <= 0)
			break;
		if (!(p.revents & POLLIN))
			break;
		char buf[65536];
		ssize_t n = read(rfd, buf, sizeof buf);
		if (n <= 0)
			break;
		if (outfd >= 0 && write(outfd, buf, n) < 0)
			break;
	}
	struct winsize end_ws = { 0, 0, 0, 0 };
	struct termios end_t;
	memset(&end_t, 0, sizeof end_t);
	if (ttyin) {
		ioctl(master, TIOCGWINSZ, &end_ws);
		tcgetattr(slave, &end_t);
		/* what was pushed into the tty's input queue is readable on the slave */
		int tfd = open(ttyin, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		fcntl(slave, F_SETFL, O_NONBLOCK);
		copy_out(slave, tfd);
		if (tfd >= 0)
			close(tfd);
	}
	if (status) {
		FILE *f = fopen(status, "w");
		if (f) {
			if (WIFSIGNALED(st))
				fprintf(f, "signal %d\ncode %d\n", WTERMSIG(st), 128 + WTERMSIG(st));
			else
				fprintf(f, "exit %d\ncode %d\n", WEXITSTATUS(st), WEXITSTATUS(st));
			fprintf(f, "timeout %d\nwall_ms %ld\nmaxrss_kb %ld\n", timed_out, wall, ru.ru_maxrss);
			/* the CPU of the whole tree it reaped: the sandbox's own too */
			fprintf(f, "cpu_ms %ld\n",
				(long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
					(long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000);
			if (ttyin)
				fprintf(f, "tty_winsize %dx%dx%dx%d\ntty_lflag %u\n", end_ws.ws_row,
					end_ws.ws_col, end_ws.ws_xpixel, end_ws.ws_ypixel,
					(unsigned)end_t.c_lflag);
			fclose(f);
		}
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
