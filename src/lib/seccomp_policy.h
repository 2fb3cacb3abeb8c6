/* The syscall policy: which calls each profile blocks, built with libseccomp.
 * Used at build time only (tools/genfilter.c) to compile every profile
 * variant to BPF once; the runtime only copies, patches and installs them. */
#ifndef SANDLOCK_SECCOMP_POLICY_H
#define SANDLOCK_SECCOMP_POLICY_H
#include <seccomp.h>
#include <stdint.h>

#include "seccomp_filters.h"

/* Build the filter of one variant; returns NULL on failure. */
scmp_filter_ctx sl_policy_build(unsigned variant);
#endif
