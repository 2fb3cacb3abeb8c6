/* filter_install - what installing the compiled seccomp filter costs.
 *
 *   filter_install [VARIANT [ROUNDS]]      (default 3, the seed line's; 400)
 *
 * VARIANT "proto": floor_proto's filter (the deny list as a binary tree);
 * "proto-list": the same as the list it was before 2026-12-07.
 *
 * Each round forks two children, in alternating order: one installs the
 * variant's program (build/seccomp_filters.c, as the runtime does, with a
 * listener), the other a one-instruction program (RET ALLOW) the same way;
 * each times its own seccomp() call (CLOCK_MONOTONIC).  The kernel checks,
 * converts and compiles (JIT) every instruction at install: the difference
 * is what the program's length costs a run; the one-instruction figure is
 * the part no shorter program removes.  The placeholders are not patched
 * (ERRNO values and constants the kernel takes as they are).
 * Output: "install VARIANT LEN median_us p10_us ONE median_us p10_us paired_diff_us".
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seccomp_filters.h"
#include "floor_proto_filter.h"
#include "floor_proto_list.h"

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* microseconds of one install in a fresh child, or -1 */
static double install(const struct sock_filter *f, size_t len)
{
	int p[2];
	if (pipe(p))
		exit(1);
	pid_t c = fork();
	if (c < 0)
		exit(1);
	if (!c) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		struct sock_fprog prog = { .len = (unsigned short)len, .filter = (struct sock_filter *)f };
		double t0 = now_us();
		long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		double d = r < 0 ? -1 : now_us() - t0;
		_exit(write(p[1], &d, sizeof(d)) == sizeof(d) ? 0 : 1);
	}
	close(p[1]);
	double d = -1;
	if (read(p[0], &d, sizeof(d)) != sizeof(d))
		d = -1;
	close(p[0]);
	waitpid(c, NULL, 0);
	return d;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "3";
	unsigned v = (unsigned)atoi(name);
	int n = argc > 2 ? atoi(argv[2]) : 400;
	struct sl_bpf prog = { NULL, 0 };
	if (!strcmp(name, "proto"))
		prog = (struct sl_bpf){ floor_proto_filter, sizeof(floor_proto_filter) / sizeof(floor_proto_filter[0]) };
	else if (!strcmp(name, "proto-list"))
		prog = (struct sl_bpf){ floor_proto_list, sizeof(floor_proto_list) / sizeof(floor_proto_list[0]) };
	else if (v < SL_FV_COUNT)
		prog = sl_filters[v];
	if (!prog.insns || n < 1) {
		fprintf(stderr, "usage: filter_install [VARIANT (0-%u, proto, proto-list) [ROUNDS]]\n",
			SL_FV_COUNT - 1);
		return 125;
	}
	static const struct sock_filter one[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)), *d = malloc(n * sizeof(double));
	if (!a || !b || !d)
		return 1;
	for (int i = 0; i < n; i++) {
		if (i & 1) {
			a[i] = install(prog.insns, prog.len);
			b[i] = install(one, 1);
		} else {
			b[i] = install(one, 1);
			a[i] = install(prog.insns, prog.len);
		}
		if (a[i] < 0 || b[i] < 0) {
			fprintf(stderr, "filter_install: seccomp() refused here\n");
			return 1;
		}
		d[i] = a[i] - b[i];
	}
	qsort(a, n, sizeof(double), cmp);
	qsort(b, n, sizeof(double), cmp);
	qsort(d, n, sizeof(double), cmp);
	printf("install %s %zu %.1f %.1f ONE %.1f %.1f %.1f\n", name, prog.len, a[n / 2], a[n / 10],
	       b[n / 2], b[n / 10], d[n / 2]);
	return 0;
}
