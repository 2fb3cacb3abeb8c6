/* Clocks, randomness, waiting; and what the guest never gets: sockets,
 * signals. */
#include "wasi.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static int clock_of(uint32_t id)
{
	switch (id) {
	case 0: return CLOCK_REALTIME;
	case 1: return CLOCK_MONOTONIC;
	case 2: return CLOCK_PROCESS_CPUTIME_ID;
	case 3: return CLOCK_THREAD_CPUTIME_ID;
	default: return -1;
	}
}

static uint64_t ns(struct timespec t)
{
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint32_t wasi_clock_res_get(struct wasi *w, uint32_t id, uint32_t res)
{
	int c = clock_of(id);
	uint8_t *o = wasi_mem(w, res, 8);
	if (c < 0)
		return W_EINVAL;
	if (!o)
		return W_EFAULT;
	struct timespec t;
	if (clock_getres(c, &t) != 0)
		return wasi_errno(errno);
	uint64_t v = ns(t);
	memcpy(o, &v, 8);
	return W_ESUCCESS;
}

uint32_t wasi_clock_time_get(struct wasi *w, uint32_t id, uint64_t precision, uint32_t out)
{
	(void)precision;
	int c = clock_of(id);
	uint8_t *o = wasi_mem(w, out, 8);
	if (c < 0)
		return W_EINVAL;
	if (!o)
		return W_EFAULT;
	struct timespec t;
	if (clock_gettime(c, &t) != 0)
		return wasi_errno(errno);
	uint64_t v = ns(t);
	memcpy(o, &v, 8);
	return W_ESUCCESS;
}

uint32_t wasi_random_get(struct wasi *w, uint32_t buf, uint32_t len)
{
	uint8_t *o = wasi_mem(w, buf, len);
	if (!o)
		return W_EFAULT;
	for (uint32_t at = 0; at < len;) {
		ssize_t n = getrandom(o + at, len - at, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return wasi_errno(errno);
		}
		at += (uint32_t)n;
	}
	return W_ESUCCESS;
}

uint32_t wasi_sched_yield(struct wasi *w)
{
	(void)w;
	sched_yield();
	return W_ESUCCESS;
}

/* subscription (48 bytes): userdata u64, tag u8 at 8; clock: id u32 at 16,
 * timeout u64 at 24, precision at 32, flags u16 at 40; fd: fd u32 at 16.
 * event (32 bytes): userdata, error u16 at 8, type u8 at 10, nbytes u64
 * at 16, flags u16 at 24. */
uint32_t wasi_poll_oneoff(struct wasi *w, uint32_t in, uint32_t out, uint32_t n, uint32_t nevents)
{
	if (n == 0 || n > WASI_POLL_MAX)
		return W_EINVAL;
	const uint8_t *s = wasi_mem(w, in, (uint64_t)n * 48);
	uint8_t *ev = wasi_mem(w, out, (uint64_t)n * 32), *ne = wasi_mem(w, nevents, 4);
	if (!s || !ev || !ne)
		return W_EFAULT;
	struct pollfd pf[WASI_POLL_MAX];
	int map[WASI_POLL_MAX], np = 0;
	int64_t wait_ns = -1; /* the nearest clock's */
	uint32_t clock_sub = UINT32_MAX;
	uint32_t k = 0;
	uint8_t early[WASI_POLL_MAX];
	memset(early, 0, n);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *sub = s + 48 * (size_t)i;
		uint8_t tag = sub[8];
		if (tag == 0) {
			uint32_t id;
			uint64_t timeout;
			uint16_t fl;
			memcpy(&id, sub + 16, 4);
			memcpy(&timeout, sub + 24, 8);
			memcpy(&fl, sub + 40, 2);
			int c = clock_of(id);
			if (c < 0) {
				early[i] = W_EINVAL;
				continue;
			}
			int64_t rel = timeout > INT64_MAX ? INT64_MAX : (int64_t)timeout;
			if (fl & 1) { /* absolute */
				struct timespec t;
				clock_gettime(c, &t);
				uint64_t now = ns(t);
				rel = timeout > now ? (int64_t)(timeout - now) : 0;
			}
			if (wait_ns < 0 || rel < wait_ns) {
				wait_ns = rel;
				clock_sub = i;
			}
		} else if (tag == 1 || tag == 2) {
			uint32_t fd;
			memcpy(&fd, sub + 16, 4);
			struct wasi_fd *f = wasi_fd_get(w, fd);
			if (!f) {
				early[i] = W_EBADF;
				continue;
			}
			pf[np] = (struct pollfd){ .fd = f->host, .events = tag == 1 ? POLLIN : POLLOUT };
			map[np++] = (int)i;
		} else {
			early[i] = W_EINVAL;
		}
	}
	bool any_early = false;
	for (uint32_t i = 0; i < n; i++)
		any_early |= early[i] != 0;
	int ms = any_early ? 0 : wait_ns < 0 ? -1 : (int)((wait_ns + 999999) / 1000000 > INT32_MAX ? INT32_MAX : (wait_ns + 999999) / 1000000);
	int r;
	if (np == 0 && ms > 0) {
		/* a sleep: to the nanosecond, not the millisecond */
		struct timespec t = { wait_ns / 1000000000, wait_ns % 1000000000 };
		while (nanosleep(&t, &t) != 0 && errno == EINTR)
			;
		r = 0;
	} else {
		do
			r = poll(pf, (nfds_t)np, ms);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return wasi_errno(errno);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!early[i])
			continue;
		uint8_t *e = ev + 32 * (size_t)k++;
		memset(e, 0, 32);
		memcpy(e, s + 48 * (size_t)i, 8);
		uint16_t er = early[i];
		memcpy(e + 8, &er, 2);
		e[10] = s[48 * (size_t)i + 8];
	}
	for (int j = 0; j < np; j++) {
		if (!pf[j].revents)
			continue;
		const uint8_t *sub = s + 48 * (size_t)map[j];
		uint8_t *e = ev + 32 * (size_t)k++;
		memset(e, 0, 32);
		memcpy(e, sub, 8);
		e[10] = sub[8];
		uint64_t nb = 1;
		memcpy(e + 16, &nb, 8);
		if (pf[j].revents & POLLHUP) {
			uint16_t hup = 1;
			memcpy(e + 24, &hup, 2);
		}
	}
	if (k == 0 && clock_sub != UINT32_MAX) {
		uint8_t *e = ev;
		memset(e, 0, 32);
		memcpy(e, s + 48 * (size_t)clock_sub, 8);
		e[10] = 0;
		k = 1;
	}
	memcpy(ne, &k, 4);
	return W_ESUCCESS;
}

uint32_t wasi_proc_raise(struct wasi *w, uint32_t sig)
{
	(void)w;
	(void)sig;
	return W_ENOSYS;
}

uint32_t wasi_sock_accept(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t out)
{
	(void)w, (void)fd, (void)flags, (void)out;
	return W_ENOTSUP;
}

uint32_t wasi_sock_recv(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t flags,
			uint32_t nread, uint32_t oflags)
{
	(void)w, (void)fd, (void)iovs, (void)n, (void)flags, (void)nread, (void)oflags;
	return W_ENOTSUP;
}

uint32_t wasi_sock_send(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t flags,
			uint32_t nwritten)
{
	(void)w, (void)fd, (void)iovs, (void)n, (void)flags, (void)nwritten;
	return W_ENOTSUP;
}

uint32_t wasi_sock_shutdown(struct wasi *w, uint32_t fd, uint32_t how)
{
	(void)w, (void)fd, (void)how;
	return W_ENOTSUP;
}
