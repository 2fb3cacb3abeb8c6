/* Build an IPv4/UDP datagram to 127.0.0.1:port (for raw/packet socket attacks). */
#include <netinet/ip.h>
#include <netinet/udp.h>
static unsigned short ip_csum(const void *p, int n)
{
	const unsigned short *w = p;
	unsigned long s = 0;
	for (; n > 1; n -= 2)
		s += *w++;
	if (n)
		s += *(const unsigned char *)w;
	s = (s >> 16) + (s & 0xffff);
	s += s >> 16;
	return ~s;
}

static int build_udp(unsigned char *buf, int port, const char *payload)
{
	int pl = strlen(payload);
	struct iphdr *ip = (void *)buf;
	struct udphdr *u = (void *)(buf + sizeof *ip);
	memset(buf, 0, sizeof *ip + sizeof *u);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = htonl(INADDR_LOOPBACK);
	ip->daddr = htonl(INADDR_LOOPBACK);
	ip->tot_len = htons(sizeof *ip + sizeof *u + pl);
	ip->id = htons(4242);
	ip->check = ip_csum(ip, sizeof *ip);
	u->source = htons(40000);
	u->dest = htons(port);
	u->len = htons(sizeof *u + pl);
	u->check = 0;
	memcpy(buf + sizeof *ip + sizeof *u, payload, pl);
	return sizeof *ip + sizeof *u + pl;
}
