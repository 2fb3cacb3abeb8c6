/* `sandlock interactive`: the CPU the programs use, for the idle rule (a
 * pair is idle when no byte went either way and no program used CPU). */
#include "interactive.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>

/* ---- CPU of the programs, for the idle rule ---- */

struct proc_ent {
	pid_t pid, ppid;
	uint64_t ticks;
	signed char root;        /* the side it descends from, -1: none (yet) */
};

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_ent *)a)->pid, y = ((const struct proc_ent *)b)->pid;
	return (x > y) - (x < y);
}

struct tree_walk {
	pid_t *q;
	signed char *root;
	size_t n, cap;
	int from;                /* the side of the process being read */
	uint64_t sum;
	bool found[2], full;
};

static bool grow(struct tree_walk *w)
{
	if (w->n < w->cap)
		return true;
	size_t cap = w->cap ? w->cap * 2 : 64;
	pid_t *nq = realloc(w->q, cap * sizeof(*nq));
	if (nq)
		w->q = nq;
	signed char *nr = realloc(w->root, cap);
	if (nr)
		w->root = nr;
	if (!nq || !nr)
		return false;
	w->cap = cap;
	return true;
}

static void tree_child(void *ctx, pid_t pid)
{
	struct tree_walk *w = ctx;
	struct sl_pstat st;
	if (w->full || !sl_proc_stat(pid, &st))
		return;
	if (!grow(w)) {
		w->full = true;
		return;
	}
	w->q[w->n] = pid;
	w->root[w->n++] = (signed char)w->from;
	w->sum += st.own_ticks + st.child_ticks;
	w->found[w->from] = true;
}

/* The same from the sides themselves: the children lists of every thread
 * of every process found, so that the cost is the pair's size, not the
 * host's.  false: the kernel keeps no children lists. */
static bool tree_ticks_children(const struct pair *pp, bool *seen, uint64_t *sum)
{
	struct tree_walk w = { 0 };
	bool lists = false, live = false;
	for (int s = 0; s < 2; s++) {
		if (pp->s[s].pid <= 0)
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pp->s[s].pid,
			 (int)pp->s[s].pid);
		live |= access(path, F_OK) == 0 || errno != ENOENT;
		if (access(path, R_OK) == 0)
			lists = true;
		if (!grow(&w)) {
			w.full = true;
			break;
		}
		w.q[w.n] = pp->s[s].pid;
		w.root[w.n++] = (signed char)s;
	}
	if (!lists && live) {
		free(w.q);
		free(w.root);
		return false;
	}
	for (size_t i = 0; i < w.n && !w.full; i++) { /* w.n grows as children are found */
		w.from = w.root[i];
		sl_each_child(w.q[i], 0, tree_child, &w);
	}
	free(w.q);
	free(w.root);
	*sum = w.sum;
	*seen = (w.found[0] || pp->s[0].done) && (w.found[1] || pp->s[1].done);
	return true;
}

/* Clock ticks used by every descendant of the sides' processes (the
 * programs, and what they started), from /proc: user and system time of
 * each, and of its reaped children; found from the sides (above), or where
 * the kernel keeps no children lists, among every process of the host.  *seen: a descendant of each live side
 * was found (else the figure says nothing: /proc hidden, or a program
 * between its end and its side's). */
uint64_t ia_tree_ticks(const struct pair *pp, bool *seen)
{
	struct proc_ent *e = NULL;
	size_t n = 0, cap = 0;
	uint64_t sum = 0;
	*seen = false;
	if (tree_ticks_children(pp, seen, &sum))
		return sum;
	/* no children lists: the last resort reads every process there is */
	DIR *dir = opendir("/proc");
	if (!dir)
		return 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		struct sl_pstat st;
		pid_t pid = (pid_t)atoi(de->d_name);
		if (!sl_proc_stat(pid, &st))
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *ne = realloc(e, nc * sizeof(*e));
			if (!ne)
				break;
			e = ne;
			cap = nc;
		}
		e[n++] = (struct proc_ent){ pid, st.ppid, st.own_ticks + st.child_ticks, -1 };
	}
	closedir(dir);
	if (n)
		qsort(e, n, sizeof(*e), by_pid);
	/* a pass per generation: the trees are a few levels deep */
	bool found[2] = { false, false };
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			if (e[i].root >= 0)
				continue;
			int root = -1;
			for (int s = 0; s < 2; s++)
				if (pp->s[s].pid > 0 && e[i].ppid == pp->s[s].pid)
					root = s;
			if (root < 0) {
				struct proc_ent key = { .pid = e[i].ppid };
				const struct proc_ent *par = bsearch(&key, e, n, sizeof(*e), by_pid);
				if (par)
					root = par->root;
			}
			if (root >= 0) {
				e[i].root = (signed char)root;
				changed = true;
				sum += e[i].ticks;
				found[root] = true;
			}
		}
	}
	free(e);
	*seen = (found[0] || pp->s[0].done) && (found[1] || pp->s[1].done);
	return sum;
}
