/*
 * The supervisor's copies of the program's standard streams.
 *
 * The program never holds a descriptor of the grader's terminal: with one,
 * it could stop the terminal's output (TCXONC), resize it (the kernel then
 * signals the grader's process group), change its modes, flush what the
 * grader typed, or write to it past --max-output through stdin, which a
 * terminal opens for writing too.  So a terminal on stdin is read here and
 * fed to the program through a pipe, and a terminal on stdout or stderr is
 * written here, as is all output under --max-output.
 *
 * No copy ever blocks the supervisor, whose poll loop keeps the wall clock:
 * a destination that cannot take more (a terminal stopped with ^S, a
 * grader that does not read its pipe) keeps the bytes in a buffer, and the
 * source is not read again until they are gone, so the program waits, not
 * the supervisor.  Pipes and terminals are written through a description
 * of our own opened non-blocking (setting O_NONBLOCK on the grader's
 * would change it under the grader), sockets with MSG_DONTWAIT, and a
 * reader that went away costs the supervisor no SIGPIPE.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define RELAY_BUF 65536

int sl_fd_above_stdio(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return h;
}

int sl_relay_reopen(int fd, int access)
{
	struct stat a, b;
	if (fstat(fd, &a) == 0 && (S_ISFIFO(a.st_mode) || S_ISCHR(a.st_mode))) {
		char path[32];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		int r = open(path, access | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		/* the same file: opening a pty master's link would make a
		 * new terminal instead */
		if (r >= 0 && fstat(r, &b) == 0 && a.st_ino == b.st_ino && a.st_rdev == b.st_rdev &&
		    a.st_dev == b.st_dev)
			return sl_fd_above_stdio(r);
		if (r >= 0)
			close(r);
	}
	/* a regular file (whose offset we must share), or no /proc: the
	 * grader's own description, written only when poll says it can be */
	return fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

int sl_relay_init(struct sl_relay *r, int from, int to, bool feeds_program)
{
	struct stat st;
	*r = (struct sl_relay){ .from = from, .to = to, .feeds_program = feeds_program };
	r->to_socket = fstat(to, &st) == 0 && S_ISSOCK(st.st_mode);
	r->buf = malloc(RELAY_BUF);
	return r->buf ? 0 : -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void sl_relay_close(struct sl_relay *r)
{
	close_fd(&r->from);
	close_fd(&r->to);
	free(r->buf);
	r->buf = NULL;
	r->len = r->off = 0;
}

short sl_relay_events(const struct sl_relay *r, int *fd)
{
	if (r->off < r->len) {
		*fd = r->to;
		return POLLOUT;
	}
	if (r->from >= 0 && !r->capped) {
		*fd = r->from;
		return POLLIN;
	}
	*fd = -1;
	return 0;
}

/* write() without the SIGPIPE a vanished reader sends: blocked for the
 * call, and taken back if it was ours. */
static ssize_t put(struct sl_relay *r)
{
	const char *b = r->buf + r->off;
	size_t n = r->len - r->off;
	if (r->to_socket)
		return send(r->to, b, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	sigset_t pipe_set, old, pending;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
	ssize_t w = write(r->to, b, n);
	int e = errno;
	if (w < 0 && e == EPIPE && !was_pending) {
		struct timespec zero = { 0, 0 };
		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return w;
}

bool sl_relay_move(struct sl_relay *r, uint64_t cap, uint64_t *total)
{
	for (;;) {
		if (r->off < r->len) {
			ssize_t w = put(r);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				return !r->capped; /* until poll says POLLOUT */
			if (w <= 0) {
				/* the reader went away: what follows is
				 * counted and dropped */
				close_fd(&r->to);
				r->off = r->len;
				if (r->feeds_program)
					close_fd(&r->from);
				continue;
			}
			r->off += (size_t)w;
			continue;
		}
		r->off = r->len = 0;
		if (r->from < 0 || r->capped)
			return !r->capped;
		ssize_t n = read(r->from, r->buf, RELAY_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0) {
			/* the end (or EIO: a terminal we may not read
			 * from the background): the program sees EOF */
			close_fd(&r->from);
			if (r->feeds_program)
				close_fd(&r->to);
			return true;
		}
		size_t keep = (size_t)n;
		if (cap && *total + keep > cap) {
			keep = cap - *total;
			r->capped = true;
		}
		if (total)
			*total += keep;
		if (r->count)
			*r->count += keep;
		if (r->to >= 0)
			r->len = keep;
	}
}

void sl_relay_finish(struct sl_relay *r, uint64_t cap, uint64_t *total, bool *over)
{
	if (r->feeds_program) {
		/* nobody left to read it */
		sl_relay_close(r);
		return;
	}
	/* Every writer is gone: read to EOF, then wait for the destination
	 * as long as it takes (the run is over, its times are taken). */
	if (*over)
		r->capped = true;
	for (;;) {
		if (!sl_relay_move(r, cap, total))
			*over = true;
		int fd;
		short ev = sl_relay_events(r, &fd);
		if (!ev)
			break;
		struct pollfd pf = { fd, ev, 0 };
		if (poll(&pf, 1, -1) < 0 && errno != EINTR)
			break;
	}
	sl_relay_close(r);
}
