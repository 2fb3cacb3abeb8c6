// attack: netlink_socket
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: an AF_NETLINK/NETLINK_ROUTE socket dumps the host's network interfaces (bytes read from the kernel: "NETLINK-IFACE lo")
// escaped-if: out_has "NETLINK-IFACE lo"
#include "attack.h"
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (s < 0) {
		say("socket(AF_NETLINK): %s\n", strerror(errno));
		return 1;
	}
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
	} req;
	memset(&req, 0, sizeof req);
	req.h.nlmsg_len = sizeof req;
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.i.ifi_family = AF_UNSPEC;
	if (send(s, &req, sizeof req, 0) < 0) {
		say("send: %s\n", strerror(errno));
		return 1;
	}
	char buf[32768];
	for (;;) {
		ssize_t n = recv(s, buf, sizeof buf, 0);
		if (n <= 0)
			break;
		for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type != RTM_NEWLINK)
				continue;
			struct ifinfomsg *ifi = NLMSG_DATA(h);
			int len = h->nlmsg_len - NLMSG_LENGTH(sizeof *ifi);
			for (struct rtattr *a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len))
				if (a->rta_type == IFLA_IFNAME)
					say("NETLINK-IFACE %s\n", (char *)RTA_DATA(a));
		}
	}
	return 0;
}
