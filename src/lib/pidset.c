/*
 * The processes a walk of the run finds, in the order found, each once.
 * It grows with the run: a walk with a fixed cap (4,096) saw no further,
 * so a run allowed more processes than that (--nproc 5000) hid the rest
 * from the accounting, the task count and the kill.  Looking a pid up is
 * a hash probe, so a walk of n processes costs n, not n squared.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(const struct sl_pidset *s, pid_t pid)
{
	return ((uint32_t)pid * 2654435761u) & (s->nslot - 1);
}

long sl_pidset_index(const struct sl_pidset *s, pid_t pid)
{
	if (!s->nslot || pid <= 0)
		return -1;
	for (size_t i = slot_of(s, pid);; i = (i + 1) & (s->nslot - 1)) {
		if (s->slot[i] == 0)
			return -1;
		if (s->v[s->slot[i] - 1] == pid)
			return (long)s->slot[i] - 1;
	}
}

bool sl_pidset_has(const struct sl_pidset *s, pid_t pid)
{
	return sl_pidset_index(s, pid) >= 0;
}

/* The slots hold an index into v, plus one (0: free). */
static void put(struct sl_pidset *s, size_t idx)
{
	size_t i = slot_of(s, s->v[idx]);
	while (s->slot[i] != 0)
		i = (i + 1) & (s->nslot - 1);
	s->slot[i] = (uint32_t)idx + 1;
}

/* Room for one more, the table kept at most half full. */
static bool grow(struct sl_pidset *s)
{
	if (s->n < s->cap)
		return true;
	size_t cap = s->cap ? 2 * s->cap : 64;
	pid_t *v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return false;
	s->v = v;
	long *aux = realloc(s->aux, cap * sizeof(*aux));
	if (!aux)
		return false;
	s->aux = aux;
	uint32_t *slot = calloc(2 * cap, sizeof(*slot));
	if (!slot)
		return false;
	free(s->slot);
	s->slot = slot;
	s->nslot = 2 * cap;
	s->cap = cap;
	for (size_t i = 0; i < s->n; i++)
		put(s, i);
	return true;
}

int sl_pidset_add(struct sl_pidset *s, pid_t pid, long aux)
{
	if (pid <= 0 || sl_pidset_has(s, pid))
		return 0;
	if (!grow(s))
		return -1;
	s->aux[s->n] = aux;
	s->v[s->n] = pid;
	put(s, s->n++);
	return 1;
}

void sl_pidset_clear(struct sl_pidset *s)
{
	if (s->nslot)
		memset(s->slot, 0, s->nslot * sizeof(*s->slot));
	s->n = 0;
}

void sl_pidset_free(struct sl_pidset *s)
{
	free(s->v);
	free(s->aux);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
