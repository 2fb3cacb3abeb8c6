/* Sockets under "net 0": creating one is refused (EPERM), and so is every
 * call that would reach or offer an address with one the program was
 * handed.  A connected AF_UNIX pair reaches nothing outside the program,
 * so socketpair(AF_UNIX) is allowed, as sandlock's seccomp filter allows
 * it.  Name lookups are refused too: libc's resolver opens its sockets
 * inside itself, where socket() is not seen. */
#include "preload.h"

#include <errno.h>
#include <netdb.h>
#include <sys/socket.h>

static int refuse(const char *op)
{
	sl_say(op, NULL, "net 0");
	errno = EPERM;
	return -1;
}

#define NET(op)                             \
	do {                                \
		sl_ensure();                \
		if (!sl.net)                \
			return refuse(op); \
	} while (0)

SL_EXPORT int socket(int domain, int type, int proto)
{
	NET("socket");
	return REAL(socket)(domain, type, proto);
}

SL_EXPORT int socketpair(int domain, int type, int proto, int sv[2])
{
	sl_ensure();
	if (!sl.net && domain != AF_UNIX)
		return refuse("socketpair");
	return REAL(socketpair)(domain, type, proto, sv);
}

SL_EXPORT int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	NET("connect");
	return REAL(connect)(fd, addr, len);
}

SL_EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	NET("bind");
	return REAL(bind)(fd, addr, len);
}

SL_EXPORT int listen(int fd, int backlog)
{
	NET("listen");
	return REAL(listen)(fd, backlog);
}

SL_EXPORT int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	NET("accept");
	return REAL(accept)(fd, addr, len);
}

SL_EXPORT int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	NET("accept4");
	return REAL(accept4)(fd, addr, len, flags);
}

/* without an address it is a write on a connected socket */
SL_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr,
			 socklen_t len)
{
	sl_ensure();
	if (!sl.net && addr)
		return refuse("sendto");
	return REAL(sendto)(fd, buf, n, flags, addr, len);
}

SL_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	sl_ensure();
	if (!sl.net && msg && msg->msg_name)
		return refuse("sendmsg");
	return REAL(sendmsg)(fd, msg, flags);
}

SL_EXPORT int sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
	sl_ensure();
	for (unsigned i = 0; !sl.net && v && i < n; i++)
		if (v[i].msg_hdr.msg_name)
			return refuse("sendmmsg");
	return REAL(sendmmsg)(fd, v, n, flags);
}

SL_EXPORT int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
			  struct addrinfo **res)
{
	sl_ensure();
	if (!sl.net) {
		refuse("getaddrinfo");
		return EAI_SYSTEM;
	}
	return REAL(getaddrinfo)(node, service, hints, res);
}

#define LOOKUP(op)                                  \
	do {                                        \
		sl_ensure();                        \
		if (!sl.net) {                      \
			refuse(op);                 \
			h_errno = NO_RECOVERY;      \
			return NULL;                \
		}                                   \
	} while (0)
#define LOOKUP_R(op)                                \
	do {                                        \
		sl_ensure();                        \
		if (!sl.net) {                      \
			refuse(op);                 \
			*result = NULL;             \
			*err = NO_RECOVERY;         \
			return EPERM;               \
		}                                   \
	} while (0)

SL_EXPORT struct hostent *gethostbyname(const char *name)
{
	LOOKUP("gethostbyname");
	return REAL(gethostbyname)(name);
}

SL_EXPORT struct hostent *gethostbyname2(const char *name, int af)
{
	LOOKUP("gethostbyname2");
	return REAL(gethostbyname2)(name, af);
}

SL_EXPORT struct hostent *gethostbyaddr(const void *addr, socklen_t len, int type)
{
	LOOKUP("gethostbyaddr");
	return REAL(gethostbyaddr)(addr, len, type);
}

SL_EXPORT int gethostbyname_r(const char *name, struct hostent *ret, char *buf, size_t buflen,
			      struct hostent **result, int *err)
{
	LOOKUP_R("gethostbyname_r");
	return REAL(gethostbyname_r)(name, ret, buf, buflen, result, err);
}

SL_EXPORT int gethostbyname2_r(const char *name, int af, struct hostent *ret, char *buf, size_t buflen,
			       struct hostent **result, int *err)
{
	LOOKUP_R("gethostbyname2_r");
	return REAL(gethostbyname2_r)(name, af, ret, buf, buflen, result, err);
}
