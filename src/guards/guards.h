/* The guards: what a run gets where the kernel gives no layer for a
 * language (guard.c picks one for the command: guard_node.c for Node's
 * permission model, python/ for the Python audit hook, preload/ for libc
 * hooks).  The library's supervisor calls these; nothing else does. */
#ifndef SANDLOCK_GUARDS_H
#define SANDLOCK_GUARDS_H
#include "lib/internal.h"

/* Choose the guard for the command, write its policy into the
 * environment, rewrite the command; adds the guard's layer to res->layers,
 * or a line to why (the guard asked for but not had, under best_effort). */
int sl_guard_prepare(struct sl_run *run, struct sandlock_result *res, char *why, size_t whylen);
void sl_guard_release(struct sl_run *run);

#endif
