/*
 * The Node guard: Node's own permission model, driven by the guard policy
 * (SANDLOCK_GUARD_POLICY's text).  Self-contained: libc only.
 */
#ifndef SANDLOCK_GUARD_NODE_H
#define SANDLOCK_GUARD_NODE_H

/* Build the argv for `node` under the permission model. policy_text: the
 * SANDLOCK_GUARD_POLICY text. version: major, minor of the installed node
 * (the caller probes `node --version` once). argv: the original command
 * (argv[0] is node). Returns a NULL-terminated malloc'ed vector (strings
 * malloc'ed too) or NULL with errno set:
 *   ENOTSUP  this Node's permission model leaves native addons or WASI open
 *            (before 20.16, 21.x, 22 before 22.3), or it has none (< 20);
 *   EINVAL   a rule path that is not absolute, a malformed rule, or a Node
 *            option in argv that would widen the permissions (--allow-*,
 *            --no-permission, also in their '_' spellings);
 *   ENOMEM. */
char **sl_guard_node_argv(const char *policy_text, int major, int minor,
                          char *const argv[]);

/* parse "v20.20.2\n" into major/minor; 0 or -1 */
int sl_guard_node_version(const char *text, int *major, int *minor);

/* free what sl_guard_node_argv returned (NULL is fine) */
void sl_guard_node_argv_free(char **v);

#endif
