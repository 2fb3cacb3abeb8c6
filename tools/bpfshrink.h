/* Build-time post-pass over a seccomp BPF program (tools/bpfshrink.c). */
#ifndef SANDLOCK_BPFSHRINK_H
#define SANDLOCK_BPFSHRINK_H
#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* The same decisions as f[0..n) in fewer instructions, into out (room for
 * max); returns the new length, or 0 to keep f (a program this pass does
 * not follow, or no proof).  ph: jump constants the runtime patches, which
 * the new dispatch must not use. */
size_t bpf_shrink(const struct sock_filter *f, size_t n, struct sock_filter *out, size_t max,
		  const uint32_t *ph, size_t nph);
#endif
