/*
 * Build-time post-pass over libseccomp's BPF (tools/genfilter.c): the same
 * decisions in fewer instructions.  The kernel checks and compiles (JIT)
 * every instruction of a filter when it is installed, once per run, so the
 * program's length is start-up time (issue 26: ~130 us of a seed-line run
 * for the ~950 instructions libseccomp gave).
 *
 * libseccomp tests the system call number one value at a time (a binary
 * tree whose leaves are one JEQ per call).  Here the number's dispatch is
 * computed instead: for each architecture value the program tells apart,
 * the number's range [0, 2^32) is cut at every constant the program
 * compares with; each piece ends at the same place (a return, or the first
 * instruction that loads an argument), neighbouring pieces with the same
 * end are merged, and the pieces become a binary tree of JGE.  The
 * argument checks after the dispatch are rebuilt the same way where that
 * is shorter (see "argument checks" below; libseccomp spells "every value
 * but four" as a trie of ~30 masked compares), else kept as they were.
 *
 * The new program is then checked against the old one: both are run for
 * every architecture class at every piece's first number and must end at
 * the same place, and with arguments of every kind (each constant of the
 * program +-1, random words).  On anything this pass does not know (the X
 * register, scratch memory, arithmetic on the number) or a difference it
 * returns the program unchanged.  tests/unit/test_filters.c then checks
 * every variant, ABI and call number against the policy's tables.
 *
 * One file over 800 lines on purpose: the rewrite and the check of the
 * rewrite against the original share one BPF interpreter and one model of
 * the program, and are read together.
 */
#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfshrink.h"

#define OFF_NR 0u
#define OFF_ARCH 4u

/* Where a dispatch ends: a return (its value), or original instruction pc. */
struct end {
	bool ret;
	uint32_t v;
};

static bool end_eq(struct end a, struct end b)
{
	return a.ret == b.ret && a.v == b.v;
}

/* Only what libseccomp emits: absolute word loads, ALU with a constant,
 * jumps with a constant, returns of a constant. */
static bool known_insn(const struct sock_filter *i)
{
	switch (BPF_CLASS(i->code)) {
	case BPF_LD:
		return BPF_MODE(i->code) == BPF_ABS && BPF_SIZE(i->code) == BPF_W && i->k % 4 == 0 &&
		       i->k < 64;
	case BPF_ALU:
		return BPF_SRC(i->code) == BPF_K && BPF_OP(i->code) == BPF_AND;
	case BPF_JMP:
		if (BPF_OP(i->code) == BPF_JA)
			return true;
		return BPF_SRC(i->code) == BPF_K &&
		       (BPF_OP(i->code) == BPF_JEQ || BPF_OP(i->code) == BPF_JGT ||
			BPF_OP(i->code) == BPF_JGE || BPF_OP(i->code) == BPF_JSET);
	case BPF_RET:
		return BPF_RVAL(i->code) == BPF_K;
	default:
		return false;
	}
}

static size_t jump_to(const struct sock_filter *i, size_t pc, bool taken)
{
	if (BPF_OP(i->code) == BPF_JA)
		return pc + 1 + i->k;
	return pc + 1 + (taken ? i->jt : i->jf);
}

/* The dispatch of (arch, nr): run until a return or a load of anything but
 * nr and arch.  *bad: the program does what this pass cannot follow.
 * arch_seen collects the constants arch is compared with. */
static struct end dispatch(const struct sock_filter *f, size_t n, uint32_t arch, uint32_t nr,
			   bool *bad, uint32_t *arch_seen, size_t *n_arch)
{
	enum { NONE, NR, ARCH } tag = NONE;
	uint32_t A = 0;
	for (size_t pc = 0, steps = 0; pc < n && steps < 4 * n; steps++) {
		const struct sock_filter *i = &f[pc];
		switch (BPF_CLASS(i->code)) {
		case BPF_LD:
			if (i->k == OFF_NR) {
				A = nr, tag = NR;
			} else if (i->k == OFF_ARCH) {
				A = arch, tag = ARCH;
			} else {
				return (struct end){ false, (uint32_t)pc };
			}
			pc++;
			break;
		case BPF_RET:
			return (struct end){ true, i->k };
		case BPF_JMP: {
			bool t = false;
			if (BPF_OP(i->code) != BPF_JA) {
				/* the number: only order compares (pieces);
				 * arch: only equality (classes) */
				if (tag == NONE || (tag == NR && BPF_OP(i->code) == BPF_JSET) ||
				    (tag == ARCH && BPF_OP(i->code) != BPF_JEQ)) {
					*bad = true;
					return (struct end){ true, 0 };
				}
				switch (BPF_OP(i->code)) {
				case BPF_JEQ: t = A == i->k; break;
				case BPF_JGT: t = A > i->k; break;
				case BPF_JGE: t = A >= i->k; break;
				}
				if (tag == ARCH && arch_seen) {
					size_t k = 0;
					while (k < *n_arch && arch_seen[k] != i->k)
						k++;
					if (k == *n_arch && *n_arch < 64)
						arch_seen[(*n_arch)++] = i->k;
				}
			}
			pc = jump_to(i, pc, t);
			break;
		}
		default: /* arithmetic on the number or arch */
			*bad = true;
			return (struct end){ true, 0 };
		}
	}
	*bad = true;
	return (struct end){ true, 0 };
}

/* ------------------------------------------------------------ assembler */

/* An instruction of the new program; targets are op ids. */
struct op {
	struct sock_filter f;
	int jt, jf; /* op ids of a conditional jump's targets, or JA's (jt) */
	int orig;   /* original pc of a kept instruction, else -1 */
	int cat;    /* part of the layout (enum cat) */
};
/* the layout, in this order: jumps are forward only */
enum cat { CAT_HEAD, CAT_TREE, CAT_SYN, CAT_POOL, CAT_KEPT, CAT_N };

struct prog {
	struct op *ops;
	size_t n, cap;
	int *order; /* layout: op ids */
	size_t len;
	int cat;    /* of the ops added now */
};

static int add_op(struct prog *p, struct sock_filter f, int jt, int jf, int orig)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->ops = realloc(p->ops, p->cap * sizeof(*p->ops));
		p->order = realloc(p->order, p->cap * sizeof(*p->order));
		if (!p->ops || !p->order) {
			fprintf(stderr, "genfilter: out of memory\n");
			exit(1);
		}
	}
	p->ops[p->n] = (struct op){ f, jt, jf, orig, p->cat };
	return (int)p->n++;
}

static bool is_cond(const struct sock_filter *f)
{
	return BPF_CLASS(f->code) == BPF_JMP && BPF_OP(f->code) != BPF_JA;
}

/* Lay out and resolve the jumps; a conditional jump that cannot reach its
 * target (8 bits) gets a trampoline right after it (a JA, or a copy of the
 * return it jumps to).  Returns the length, fills out. */
static size_t layout(struct prog *p, struct sock_filter *out, size_t max)
{
	p->len = 0;
	for (int cat = 0; cat < CAT_N; cat++)
		for (size_t id = 0; id < p->n; id++)
			if (p->ops[id].cat == cat)
				p->order[p->len++] = (int)id;
	for (;;) {
		int *pos = malloc(p->n * sizeof(int));
		if (!pos)
			exit(1);
		for (size_t k = 0; k < p->len; k++)
			pos[p->order[k]] = (int)k;
		bool grew = false;
		for (size_t k = 0; k < p->len && !grew; k++) {
			struct op *o = &p->ops[p->order[k]];
			if (!is_cond(&o->f))
				continue;
			int *tg[2] = { &o->jt, &o->jf };
			for (int b = 0; b < 2 && !grew; b++) {
				int d = pos[*tg[b]] - (int)k - 1;
				if (d < 0) { /* backward: a bug here */
					free(pos);
					return 0;
				}
				if (d <= 255)
					continue;
				/* trampoline after this op */
				int target = *tg[b];
				struct sock_filter tf = p->ops[target].f;
				int id;
				struct op *t = &p->ops[target];
				if (BPF_CLASS(t->f.code) == BPF_RET)
					id = add_op(p, tf, -1, -1, -1);
				else
					id = add_op(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0),
						    target, -1, -1);
				/* right after the jump */
				memmove(&p->order[k + 2], &p->order[k + 1],
					(p->len - k - 1) * sizeof(int));
				p->order[k + 1] = id;
				p->len++;
				(void)t;
				*(b ? &p->ops[p->order[k]].jf : &p->ops[p->order[k]].jt) = id;
				grew = true;
			}
		}
		if (grew) {
			free(pos);
			continue;
		}
		if (p->len > max) {
			free(pos);
			return 0;
		}
		for (size_t k = 0; k < p->len; k++) {
			struct op *o = &p->ops[p->order[k]];
			out[k] = o->f;
			if (BPF_CLASS(o->f.code) == BPF_JMP) {
				if (BPF_OP(o->f.code) == BPF_JA) {
					out[k].k = (uint32_t)(pos[o->jt] - (int)k - 1);
				} else {
					out[k].jt = (uint8_t)(pos[o->jt] - (int)k - 1);
					out[k].jf = (uint8_t)(pos[o->jf] - (int)k - 1);
				}
			}
		}
		free(pos);
		return p->len;
	}
}

/* ------------------------------------------------------------ the pass */

struct piece {
	uint32_t lo; /* first number; the piece runs to the next one's lo - 1 */
	struct end e;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Pieces of the number's range for one arch value, merged. */
static struct piece *pieces(const struct sock_filter *f, size_t n, const uint32_t *cuts,
			    size_t ncuts, uint32_t arch, size_t *np, bool *bad)
{
	struct piece *pc = malloc(ncuts * sizeof(*pc));
	size_t k = 0;
	for (size_t c = 0; c < ncuts && !*bad; c++) {
		struct end e = dispatch(f, n, arch, cuts[c], bad, NULL, NULL);
		if (k && end_eq(pc[k - 1].e, e))
			continue;
		pc[k++] = (struct piece){ cuts[c], e };
	}
	*np = k;
	return pc;
}

struct ctx {
	struct prog *p;
	int *orig_id;     /* original pc -> op id of the kept copy */
	int *ret_id;      /* pool of returns */
	uint32_t *ret_v;
	size_t nret;
};

/* Mark everything reachable from what seen[] marks already; returns how
 * many are marked. */
static size_t mark_reach(const struct sock_filter *f, size_t n, bool *seen)
{
	size_t *stack = malloc(n * sizeof(size_t)), sp = 0, cnt = 0;
	for (size_t i = 0; i < n; i++)
		if (seen[i])
			stack[sp++] = i;
	while (sp) {
		size_t i = stack[--sp], nx[2];
		int m = 0;
		cnt++;
		if (BPF_CLASS(f[i].code) == BPF_JMP) {
			nx[m++] = jump_to(&f[i], i, true);
			if (is_cond(&f[i]))
				nx[m++] = jump_to(&f[i], i, false);
		} else if (BPF_CLASS(f[i].code) != BPF_RET) {
			nx[m++] = i + 1;
		}
		for (int j = 0; j < m; j++)
			if (nx[j] < n && !seen[nx[j]])
				seen[nx[j]] = true, stack[sp++] = nx[j];
	}
	free(stack);
	return cnt;
}

/* How many instructions are reachable from pc. */
static size_t reach_len(const struct sock_filter *f, size_t n, size_t pc)
{
	bool *seen = calloc(n, 1);
	seen[pc] = true;
	size_t cnt = mark_reach(f, n, seen);
	free(seen);
	return cnt;
}

static int end_id(struct ctx *c, struct end e)
{
	if (!e.ret)
		return c->orig_id[e.v];
	for (size_t k = 0; k < c->nret; k++)
		if (c->ret_v[k] == e.v)
			return c->ret_id[k];
	fprintf(stderr, "genfilter: bpfshrink: return 0x%x not pooled\n", e.v);
	exit(1);
}

/* Placeholders the runtime patches in jump constants (src/seccomp.c): a
 * number compared with one of them would be patched too. */
static bool is_placeholder(uint32_t k, const uint32_t *ph, size_t nph)
{
	for (size_t i = 0; i < nph; i++)
		if (ph[i] == k)
			return true;
	return false;
}

/* A piece with exceptions: single numbers inside it that end elsewhere,
 * tested with one JEQ each at its leaf.  A single number between two
 * pieces with the same end costs two cuts of the tree; as an exception of
 * the merged piece it costs one JEQ. */
struct xpiece {
	uint32_t lo;
	struct end e;
	struct piece *x; /* lo: the number, e: its end */
	size_t nx;
};

static struct xpiece *with_exceptions(const struct piece *pc, size_t n, size_t *nout)
{
	struct xpiece *o = calloc(n, sizeof(*o));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		o[k++] = (struct xpiece){ pc[i].lo, pc[i].e, NULL, 0 };
		while (k >= 3 && o[k - 1].lo - o[k - 2].lo == 1 && !o[k - 2].nx &&
		       end_eq(o[k - 3].e, o[k - 1].e)) {
			struct xpiece *a = &o[k - 3], *m = &o[k - 2], *b = &o[k - 1];
			a->x = realloc(a->x, (a->nx + 1 + b->nx) * sizeof(struct piece));
			a->x[a->nx++] = (struct piece){ m->lo, m->e };
			for (size_t j = 0; j < b->nx; j++)
				a->x[a->nx++] = b->x[j];
			free(b->x);
			k -= 2;
		}
	}
	*nout = k;
	return o;
}

/* Binary tree of JGE over pieces [a, b); returns the op id of its root.
 * Ops are emitted in preorder (root first), as forward jumps need. */
static int tree(struct ctx *c, const struct xpiece *pc, size_t a, size_t b, bool *clash,
		const uint32_t *ph, size_t nph)
{
	if (b - a == 1) {
		const struct xpiece *x = &pc[a];
		int first = -1, prev = -1;
		for (size_t j = 0; j < x->nx; j++) {
			if (is_placeholder(x->x[j].lo, ph, nph))
				*clash = true;
			int id = add_op(c->p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, x->x[j].lo, 0, 0),
					end_id(c, x->x[j].e), -1, -1);
			if (prev >= 0)
				c->p->ops[prev].jf = id;
			else
				first = id;
			prev = id;
		}
		if (prev < 0)
			return end_id(c, x->e);
		c->p->ops[prev].jf = end_id(c, x->e);
		return first;
	}
	size_t m = a + (b - a) / 2;
	if (is_placeholder(pc[m].lo, ph, nph))
		*clash = true;
	int id = add_op(c->p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, pc[m].lo, 0, 0),
			-1, -1, -1);
	int jf = tree(c, pc, a, m, clash, ph, nph);
	int jt = tree(c, pc, m, b, clash, ph, nph);
	c->p->ops[id].jt = jt;
	c->p->ops[id].jf = jf;
	return id;
}

/* ------------------------------------------------------------ argument checks */

/*
 * An argument check (the code from a dispatch's end) is a function of the
 * few words it loads.  Each word is only compared (after masking with
 * AND), so its 2^32 values fall into few classes on which every compare
 * answers the same: with masks of high bits only (a value, a range, a
 * prefix) the classes are ranges, cut where a compare changes; with other
 * masks, the values of (word & the union of the masks), when there are at
 * most 2^10 of them.  The check is run once per combination of classes,
 * and the answers become a new decision tree: a word that does not change
 * the answer is not loaded at all, neighbouring classes with the same
 * answer are one range, the cheapest word order is chosen, and equal
 * sub-trees are shared.  A check that compares with a constant the runtime
 * patches (its pid, the exec's pointers, the allocation threshold) is kept
 * as it is: a patched constant would move a cut the tree relies on.
 */
#define SY_WORDS 8
#define SY_MAXREPS 1024
#define SY_MAXCELLS 65536

struct sy_word {
	uint32_t off, mask; /* mask ~0: ranges; else the values of word & mask */
	uint32_t *reps;     /* first value of each class, ascending */
	size_t nreps;
};

struct sy_node {
	unsigned set;   /* the words still to decide (bits of block's words) */
	uint32_t *vec;  /* answers over the product of their classes */
	size_t len;
	int word;       /* the word tested here, -1: a constant */
	size_t cost;
	int id;         /* op id of its first instruction, once emitted */
};

struct sy {
	const struct sock_filter *f;
	size_t n;
	struct sy_word w[SY_WORDS];
	size_t nw;
	struct sy_node *nodes;
	size_t nnodes, capnodes;
};

static bool prefix_mask(uint32_t m)
{
	uint32_t low = ~m;
	return (low & (low + 1)) == 0;
}

static int cmp_u32(const void *a, const void *b);

/* Follow every path from entry: which words, which masks, which compares.
 * false: a load of nr or arch, an AND on nothing loaded, too many words. */
struct sy_pred {
	unsigned word;
	uint32_t mask, op, k;
};

static bool sy_scan(struct sy *s, size_t entry, struct sy_pred **preds, size_t *npreds)
{
	struct st { size_t pc; int word; uint32_t mask; };
	size_t cap = 4096, top = 0, nseen = 0, pcap = 256;
	struct st *stack = malloc(cap * sizeof(*stack)), *seen = malloc(cap * sizeof(*seen));
	*preds = malloc(pcap * sizeof(**preds));
	*npreds = 0;
	bool ok = true;
	stack[top++] = (struct st){ entry, -1, 0 };
	while (top && ok) {
		struct st t = stack[--top];
		bool dup = false;
		for (size_t k = 0; k < nseen && !dup; k++)
			dup = seen[k].pc == t.pc && seen[k].word == t.word && seen[k].mask == t.mask;
		if (dup)
			continue;
		if (nseen == cap) {
			ok = false;
			break;
		}
		seen[nseen++] = t;
		const struct sock_filter *i = &s->f[t.pc];
		switch (BPF_CLASS(i->code)) {
		case BPF_LD: {
			if (i->k == OFF_NR || i->k == OFF_ARCH) {
				ok = false;
				break;
			}
			size_t w = 0;
			while (w < s->nw && s->w[w].off != i->k)
				w++;
			if (w == s->nw) {
				if (s->nw == SY_WORDS) {
					ok = false;
					break;
				}
				s->w[s->nw++] = (struct sy_word){ i->k, 0, NULL, 0 };
			}
			stack[top++] = (struct st){ t.pc + 1, (int)w, UINT32_MAX };
			break;
		}
		case BPF_ALU:
			if (t.word < 0)
				ok = false;
			else
				stack[top++] = (struct st){ t.pc + 1, t.word, t.mask & i->k };
			break;
		case BPF_RET:
			break;
		case BPF_JMP:
			if (BPF_OP(i->code) != BPF_JA) {
				if (t.word < 0) {
					ok = false;
					break;
				}
				if (*npreds == pcap) {
					pcap *= 2;
					*preds = realloc(*preds, pcap * sizeof(**preds));
				}
				(*preds)[(*npreds)++] = (struct sy_pred){ (unsigned)t.word, t.mask,
									BPF_OP(i->code), i->k };
				stack[top++] = (struct st){ jump_to(i, t.pc, false), t.word, t.mask };
			}
			stack[top++] = (struct st){ jump_to(i, t.pc, true), t.word, t.mask };
			break;
		}
		if (top + 2 >= cap)
			ok = false;
	}
	free(stack);
	free(seen);
	return ok;
}

static void add_rep(struct sy_word *w, uint64_t v)
{
	if (v <= UINT32_MAX && w->nreps < 2 * SY_MAXREPS)
		w->reps[w->nreps++] = (uint32_t)v;
}

/* The classes of each word's values. */
static bool sy_classes(struct sy *s, const struct sy_pred *pr, size_t np, const uint32_t *ph,
		       size_t nph)
{
	for (size_t w = 0; w < s->nw; w++) {
		struct sy_word *W = &s->w[w];
		bool ranges = true;
		uint32_t u = 0;
		for (size_t k = 0; k < np; k++) {
			if (pr[k].word != w)
				continue;
			if (is_placeholder(pr[k].k, ph, nph))
				return false;
			u |= pr[k].mask;
			if (!prefix_mask(pr[k].mask) || pr[k].op == BPF_JSET)
				ranges = false;
		}
		W->reps = malloc(2 * SY_MAXREPS * sizeof(uint32_t) + 2 * np * sizeof(uint32_t) + 8);
		W->nreps = 0;
		if (ranges) {
			W->mask = UINT32_MAX;
			add_rep(W, 0);
			for (size_t k = 0; k < np; k++) {
				if (pr[k].word != w)
					continue;
				uint64_t sz = (uint64_t)(uint32_t)~pr[k].mask + 1, c = pr[k].k;
				if (pr[k].op == BPF_JEQ && (c & ~(uint64_t)pr[k].mask) == 0)
					add_rep(W, c), add_rep(W, c + sz);
				else if (pr[k].op == BPF_JGT)
					add_rep(W, (c / sz + 1) * sz);
				else if (pr[k].op == BPF_JGE)
					add_rep(W, (c + sz - 1) / sz * sz);
				if (W->nreps >= 2 * SY_MAXREPS - 2)
					return false;
			}
		} else {
			unsigned bits = (unsigned)__builtin_popcount(u);
			if (bits > 10)
				return false;
			W->mask = u;
			/* every sub-mask of u, ascending */
			uint32_t v = 0;
			do {
				add_rep(W, v);
				v = (v - u) & u;
			} while (v);
		}
		qsort(W->reps, W->nreps, sizeof(uint32_t), cmp_u32);
		size_t q = 0;
		for (size_t k = 0; k < W->nreps; k++)
			if (!q || W->reps[q - 1] != W->reps[k])
				W->reps[q++] = W->reps[k];
		W->nreps = q;
		for (size_t k = 0; k < q; k++)
			if (is_placeholder(W->reps[k], ph, nph))
				return false;
	}
	return true;
}

static uint32_t run_from(const struct sock_filter *f, size_t n, size_t pc, const uint32_t *words);

static size_t sy_len(const struct sy *s, unsigned set)
{
	size_t len = 1;
	for (size_t w = 0; w < s->nw; w++)
		if (set & (1u << w))
			len *= s->w[w].nreps;
	return len;
}

/* The answers with word w fixed to its class r (vec over set). */
static uint32_t *sy_restrict(const struct sy *s, unsigned set, const uint32_t *vec, size_t w,
			     size_t r)
{
	/* mixed radix, the lowest word fastest */
	size_t stride = 1;
	for (size_t x = 0; x < w; x++)
		if (set & (1u << x))
			stride *= s->w[x].nreps;
	size_t len = sy_len(s, set), nr = s->w[w].nreps, outlen = len / nr;
	uint32_t *out = malloc(outlen * sizeof(uint32_t) + 4);
	for (size_t o = 0; o < outlen; o++) {
		size_t lo = o % stride, hi = o / stride;
		out[o] = vec[lo + stride * (r + nr * hi)];
	}
	return out;
}

static int sy_node(struct sy *s, unsigned set, uint32_t *vec);

/* The node for (set, vec): found, or made with its cheapest word. */
static int sy_node(struct sy *s, unsigned set, uint32_t *vec)
{
	size_t len = sy_len(s, set);
	for (size_t k = 0; k < s->nnodes; k++)
		if (s->nodes[k].set == set && !memcmp(s->nodes[k].vec, vec, len * sizeof(uint32_t))) {
			free(vec);
			return (int)k;
		}
	bool constant = true;
	for (size_t k = 1; k < len && constant; k++)
		constant = vec[k] == vec[0];
	struct sy_node nd = { set, vec, len, -1, 0, -1 };
	if (!constant) {
		size_t best = SIZE_MAX;
		for (size_t w = 0; w < s->nw; w++) {
			if (!(set & (1u << w)))
				continue;
			unsigned rest = set & ~(1u << w);
			size_t cost = 1 + (s->w[w].mask != UINT32_MAX), pieces = 0;
			int prev = -2;
			int *seen = malloc(s->w[w].nreps * sizeof(int));
			size_t nseen = 0;
			for (size_t r = 0; r < s->w[w].nreps; r++) {
				int ch = sy_node(s, rest, sy_restrict(s, set, vec, w, r));
				if (ch != prev)
					pieces++;
				prev = ch;
				bool dup = false;
				for (size_t q = 0; q < nseen && !dup; q++)
					dup = seen[q] == ch;
				if (!dup) {
					seen[nseen++] = ch;
					cost += s->nodes[ch].cost;
				}
			}
			free(seen);
			if (pieces == 1) /* w does not matter here */
				cost = s->nodes[prev].cost;
			cost += pieces - 1;
			if (cost < best)
				best = cost, nd.word = pieces == 1 ? -2 - prev : (int)w;
		}
		nd.cost = best;
	}
	if (s->nnodes == s->capnodes) {
		s->capnodes = s->capnodes ? 2 * s->capnodes : 64;
		s->nodes = realloc(s->nodes, s->capnodes * sizeof(*s->nodes));
	}
	s->nodes[s->nnodes] = nd;
	return (int)s->nnodes++;
}

static int pool_ret(struct ctx *c, uint32_t v)
{
	for (size_t k = 0; k < c->nret; k++)
		if (c->ret_v[k] == v)
			return c->ret_id[k];
	c->ret_v[c->nret] = v;
	int cat = c->p->cat;
	c->p->cat = CAT_POOL;
	c->ret_id[c->nret] = add_op(c->p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, v), -1, -1, -1);
	c->p->cat = cat;
	return c->ret_id[c->nret++];
}

/* Emit node k (and, first, nothing it needs: the nodes it jumps to are
 * emitted by the caller in order of fewer words, so every jump is
 * forward).  Returns its entry's op id. */
static int sy_entry(struct sy *s, struct ctx *c, int k);

static int sy_tree(struct sy *s, struct ctx *c, const int *child, const uint32_t *lo, size_t a,
		   size_t b)
{
	if (b - a == 1)
		return sy_entry(s, c, child[a]);
	size_t m = a + (b - a) / 2;
	int id = add_op(c->p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, lo[m], 0, 0), -1, -1,
			-1);
	int jf = sy_tree(s, c, child, lo, a, m);
	int jt = sy_tree(s, c, child, lo, m, b);
	c->p->ops[id].jt = jt, c->p->ops[id].jf = jf;
	return id;
}

static int sy_entry(struct sy *s, struct ctx *c, int k)
{
	struct sy_node *nd = &s->nodes[k];
	while (nd->word <= -2)
		nd = &s->nodes[-2 - nd->word];
	if (nd->word < 0)
		return pool_ret(c, nd->vec[0]);
	if (nd->id < 0) {
		/* placeholder: a JA to the entry, resolved when emitted */
		return -1000 - (int)(nd - s->nodes);
	}
	return nd->id;
}

/* Emit one node's tests; its children are referred to by placeholder
 * ids (-1000 - node) and patched once every node is placed. */
static void sy_emit(struct sy *s, struct ctx *c, int k)
{
	struct sy_node *nd = &s->nodes[k];
	size_t w = (size_t)nd->word, nr = s->w[w].nreps;
	int *child = malloc(nr * sizeof(int));
	uint32_t *lo = malloc(nr * sizeof(uint32_t));
	size_t np = 0;
	unsigned rest = nd->set & ~(1u << w);
	for (size_t r = 0; r < nr; r++) {
		int ch = sy_node(s, rest, sy_restrict(s, nd->set, nd->vec, w, r));
		nd = &s->nodes[k];
		if (np && child[np - 1] == ch)
			continue;
		child[np] = ch, lo[np++] = s->w[w].reps[r];
	}
	nd->id = add_op(c->p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, s->w[w].off), -1, -1,
			-1);
	if (s->w[w].mask != UINT32_MAX)
		add_op(c->p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, s->w[w].mask), -1, -1, -1);
	sy_tree(s, c, child, lo, 0, np); /* np >= 2: the word matters */
	free(child);
	free(lo);
}

/* The argument check from entry, rebuilt; returns its op id, or -1 to
 * keep the original (cost: its length). */
static int synth_block(struct ctx *c, const struct sock_filter *f, size_t n, size_t entry,
		       const uint32_t *ph, size_t nph, size_t *cost)
{
	struct sy s = { f, n, { { 0 } }, 0, NULL, 0, 0 };
	struct sy_pred *pr = NULL;
	size_t np = 0;
	int ret = -1;
	if (!sy_scan(&s, entry, &pr, &np) || !sy_classes(&s, pr, np, ph, nph))
		goto out;
	unsigned all = (1u << s.nw) - 1;
	size_t len = sy_len(&s, all);
	if (len > SY_MAXCELLS)
		goto out;
	uint32_t *vec = malloc(len * sizeof(uint32_t) + 4);
	for (size_t cell = 0; cell < len; cell++) {
		uint32_t words[16] = { 0 };
		size_t x = cell;
		for (size_t w = 0; w < s.nw; w++) {
			words[s.w[w].off / 4] = s.w[w].reps[x % s.w[w].nreps];
			x /= s.w[w].nreps;
		}
		vec[cell] = run_from(f, n, entry, words);
	}
	int root = sy_node(&s, all, vec);
	*cost = s.nodes[root].cost;
	/* emit: nodes in order of more words first (a node only jumps to
	 * nodes of fewer words) */
	size_t first = c->p->n;
	/* reachable nodes, by a walk from the root */
	bool *reach = calloc(s.nnodes + 1, 1);
	int *stack = malloc((s.nnodes + 1) * sizeof(int)), sp = 0;
	stack[sp++] = root;
	while (sp) {
		int k = stack[--sp];
		while (s.nodes[k].word <= -2)
			k = -2 - s.nodes[k].word;
		if (reach[k] || s.nodes[k].word < 0)
			continue;
		reach[k] = true;
		size_t w = (size_t)s.nodes[k].word;
		for (size_t r = 0; r < s.w[w].nreps; r++) {
			int ch = sy_node(&s, s.nodes[k].set & ~(1u << w),
					 sy_restrict(&s, s.nodes[k].set, s.nodes[k].vec, w, r));
			stack = realloc(stack, (s.nnodes + 1) * sizeof(int) + (size_t)(sp + 1) * sizeof(int));
			reach = realloc(reach, s.nnodes + 1);
			stack[sp++] = ch;
		}
	}
	for (int bits = (int)s.nw; bits >= 1; bits--)
		for (size_t k = 0; k < s.nnodes; k++)
			if (k < s.nnodes && reach[k] && __builtin_popcount(s.nodes[k].set) == bits)
				sy_emit(&s, c, (int)k);
	/* children referred to before they were placed */
	for (size_t id = first; id < c->p->n; id++) {
		struct op *o = &c->p->ops[id];
		if (o->jt <= -1000)
			o->jt = sy_entry(&s, c, -1000 - o->jt);
		if (o->jf <= -1000)
			o->jf = sy_entry(&s, c, -1000 - o->jf);
	}
	ret = sy_entry(&s, c, root);
	free(reach);
	free(stack);
out:
	for (size_t w = 0; w < s.nw; w++)
		free(s.w[w].reps);
	for (size_t k = 0; k < s.nnodes; k++)
		free(s.nodes[k].vec);
	free(s.nodes);
	free(pr);
	return ret;
}

/* Run a whole program (the kinds known_insn accepts); 0xdead0000 on a
 * fault. */
static uint32_t run_from(const struct sock_filter *f, size_t n, size_t pc, const uint32_t *words)
{
	uint32_t A = 0;
	for (size_t steps = 0; pc < n && steps <= n; steps++) {
		const struct sock_filter *i = &f[pc];
		switch (BPF_CLASS(i->code)) {
		case BPF_LD: A = words[i->k / 4]; pc++; break;
		case BPF_ALU: A &= i->k; pc++; break;
		case BPF_RET: return i->k;
		case BPF_JMP: {
			bool t = false;
			switch (BPF_OP(i->code)) {
			case BPF_JEQ: t = A == i->k; break;
			case BPF_JGT: t = A > i->k; break;
			case BPF_JGE: t = A >= i->k; break;
			case BPF_JSET: t = (A & i->k) != 0; break;
			}
			pc = jump_to(i, pc, t);
			break;
		}
		default: return 0xdead0000u;
		}
	}
	return 0xdead0000u;
}

static uint32_t run(const struct sock_filter *f, size_t n, const uint32_t *words)
{
	return run_from(f, n, 0, words);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 7, rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 11);
}

size_t bpf_shrink(const struct sock_filter *f, size_t n, struct sock_filter *out, size_t max,
		  const uint32_t *ph, size_t nph)
{
	size_t len = 0;
	bool bad = false;
	for (size_t i = 0; i < n; i++)
		if (!known_insn(&f[i]) ||
		    (BPF_CLASS(f[i].code) == BPF_JMP && jump_to(&f[i], i, true) >= n) ||
		    (is_cond(&f[i]) && jump_to(&f[i], i, false) >= n))
			return 0;
	/* the number's cuts: every constant a jump compares with, and the one after */
	uint32_t *cuts = malloc((2 * n + 1) * sizeof(uint32_t));
	size_t ncuts = 0;
	cuts[ncuts++] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_cond(&f[i]))
			continue;
		cuts[ncuts++] = f[i].k;
		if (f[i].k != UINT32_MAX)
			cuts[ncuts++] = f[i].k + 1;
	}
	qsort(cuts, ncuts, sizeof(uint32_t), cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < ncuts; i++)
		if (!u || cuts[u - 1] != cuts[i])
			cuts[u++] = cuts[i];
	ncuts = u;
	/* arch classes: the constants arch is compared with, and one value
	 * for every other arch.  To a fixpoint: each named constant and the
	 * current "other" value are run at every cut, and a compare one of
	 * them reaches adds its constant (then "other" is chosen again).  At
	 * the fixpoint every arch value outside the set takes the path of
	 * "other": arch is only compared for equality, and each constant on
	 * that path is in the set. */
	uint32_t arch[65], other = 0;
	size_t narch = 0;
	for (size_t seen = SIZE_MAX; seen != narch && !bad && narch < 64;) {
		seen = narch;
		other = 0;
		for (bool taken = true; taken;) {
			taken = false;
			for (size_t k = 0; k < narch; k++)
				if (arch[k] == other)
					taken = true, other++;
		}
		for (size_t k = 0; k <= seen && !bad; k++)
			for (size_t c = 0; c < ncuts && !bad; c++)
				dispatch(f, n, k < seen ? arch[k] : other, cuts[c], &bad, arch, &narch);
	}
	if (bad || narch >= 64) {
		free(cuts);
		return 0;
	}
	arch[narch] = other; /* the last class: every arch not named */
	struct piece *pcs[65] = { 0 };
	size_t npcs[65];
	for (size_t k = 0; k <= narch && !bad; k++)
		pcs[k] = pieces(f, n, cuts, ncuts, arch[k], &npcs[k], &bad);

	struct prog p = { 0 };
	struct ctx c = { &p, calloc(n, sizeof(int)), malloc(4096 * sizeof(int)),
			 malloc(4096 * sizeof(uint32_t)), 0 };
	int *syn = malloc(n * sizeof(int)); /* entry -> rebuilt check's op id */
	bool *keep = calloc(n, 1);
	bool clash = false;
	if (bad)
		goto out;
	/* the argument checks: rebuilt where shorter */
	p.cat = CAT_SYN;
	size_t syn_kept = 0, syn_new = 0;
	for (size_t i = 0; i < n; i++)
		syn[i] = -2;
	for (size_t k = 0; k <= narch; k++)
		for (size_t q = 0; q < npcs[k]; q++)
			if (!pcs[k][q].e.ret)
				syn[pcs[k][q].e.v] = -1;
	for (size_t i = 0; i < n; i++) {
		if (syn[i] != -1)
			continue;
		size_t cost = 0, mark = p.n, pool = c.nret;
		int id = synth_block(&c, f, n, i, ph, nph, &cost);
		/* shorter than what it reaches (its own code and the returns
		 * it shares) */
		if (id != -1 && cost < reach_len(f, n, i)) {
			syn[i] = id;
			syn_new += p.n - mark;
		} else {
			/* undo: drop what it emitted */
			p.n = mark;
			c.nret = pool;
			syn[i] = -1;
			syn_kept++;
		}
	}
	/* what the remaining argument checks need: everything reachable
	 * from a dispatch's end that is not a return or a rebuilt check */
	for (size_t i = 0; i < n; i++)
		keep[i] = syn[i] == -1;
	mark_reach(f, n, keep);
	p.cat = CAT_KEPT;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			c.orig_id[i] = add_op(&p, f[i], -1, -1, (int)i);
	for (size_t i = 0; i < n; i++) {
		if (!keep[i] || BPF_CLASS(f[i].code) != BPF_JMP)
			continue;
		struct op *o = &p.ops[c.orig_id[i]];
		o->jt = c.orig_id[jump_to(&f[i], i, true)];
		if (is_cond(&f[i]))
			o->jf = c.orig_id[jump_to(&f[i], i, false)];
	}
	/* a dispatch's end: the rebuilt check, or the kept copy */
	for (size_t i = 0; i < n; i++)
		if (syn[i] >= 0)
			c.orig_id[i] = syn[i];
	/* the pool of returns the trees end in */
	p.cat = CAT_POOL;
	for (size_t k = 0; k <= narch; k++)
		for (size_t q = 0; q < npcs[k]; q++)
			if (pcs[k][q].e.ret)
				pool_ret(&c, pcs[k][q].e.v);
	/* the arch load, a JEQ per class whose pieces differ from the
	 * rest's, the trees in class order (the rest's last) */
	p.cat = CAT_HEAD;
	add_op(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH), -1, -1, -1);
	int cls[65], jeq[65], roots[65];
	size_t nj = 0;
	for (size_t k = 0; k < narch; k++) {
		bool same = npcs[k] == npcs[narch];
		for (size_t q = 0; same && q < npcs[k]; q++)
			same = pcs[k][q].lo == pcs[narch][q].lo && end_eq(pcs[k][q].e, pcs[narch][q].e);
		if (same)
			continue;
		cls[nj] = (int)k;
		jeq[nj++] = add_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch[k], 0, 0),
				   -1, -1, -1);
	}
	cls[nj] = (int)narch;
	p.cat = CAT_TREE;
	for (size_t k = 0; k <= nj; k++) {
		if (npcs[cls[k]] == 1) {
			roots[k] = end_id(&c, pcs[cls[k]][0].e);
			if (k == nj && !nj) /* the only class: after the arch load */
				add_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0), roots[k], -1, -1);
			continue;
		}
		roots[k] = add_op(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR), -1, -1, -1);
		size_t nx;
		struct xpiece *xp = with_exceptions(pcs[cls[k]], npcs[cls[k]], &nx);
		tree(&c, xp, 0, nx, &clash, ph, nph);
		for (size_t j = 0; j < nx; j++)
			free(xp[j].x);
		free(xp);
	}
	for (size_t k = 0; k < nj; k++) {
		p.ops[jeq[k]].jt = roots[k];
		p.ops[jeq[k]].jf = k + 1 < nj ? jeq[k + 1] : roots[nj];
	}
	if (!clash)
		len = layout(&p, out, max);
	if (getenv("BPFSHRINK_DEBUG"))
		fprintf(stderr, "bpfshrink: classes %zu, pieces %zu, returns %zu, checks rebuilt in %zu, kept %zu, total %zu\n",
			nj + 1, npcs[cls[0]], c.nret, syn_new, syn_kept, len);
	/* the proof.  (1) The dispatch: every class at every cut ends where
	 * it ended (the copy of the same instruction, the rebuilt check of
	 * the same entry, or the same return).  (2) The kept code is the
	 * same code with its jumps to the copies of the same targets (made
	 * above).  (3) A rebuilt check answers as the old one on every class
	 * of its words (by its construction); as a check of that and of the
	 * whole, both programs are run at every cut with arguments of every
	 * kind: 0, ~0, random, and every constant of the program, +-1. */
	int *id_at = malloc((len + 1) * sizeof(int));
	for (size_t k = 0; k < len; k++)
		id_at[k] = p.order[k];
	uint32_t *consts = malloc((3 * n + 2) * sizeof(uint32_t));
	size_t nconsts = 0;
	for (size_t i = 0; i < n; i++)
		if (is_cond(&f[i]) || BPF_CLASS(f[i].code) == BPF_ALU) {
			consts[nconsts++] = f[i].k;
			consts[nconsts++] = f[i].k + 1;
			consts[nconsts++] = f[i].k - 1;
		}
	for (size_t k = 0; k <= narch && len; k++) {
		for (size_t q = 0; q < ncuts && len; q++) {
			bool b1 = false, b2 = false;
			struct end e1 = dispatch(f, n, arch[k], cuts[q], &b1, NULL, NULL);
			struct end e2 = dispatch(out, len, arch[k], cuts[q], &b2, NULL, NULL);
			bool same;
			if (e1.ret) {
				same = e2.ret && e2.v == e1.v;
			} else {
				const struct op *want = &p.ops[c.orig_id[e1.v]];
				same = BPF_CLASS(want->f.code) == BPF_RET && syn[e1.v] >= 0
					       ? e2.ret && e2.v == want->f.k
					       : !e2.ret && id_at[e2.v] == c.orig_id[e1.v];
			}
			uint32_t w[16];
			int tries = e1.ret ? 4 : syn[e1.v] >= 0 ? 4000 : 64;
			for (int t = 0; t < tries && !b2 && same; t++) {
				for (int j = 0; j < 16; j++) {
					uint32_t r = rnd();
					w[j] = t == 0 ? 0 : t == 1 ? UINT32_MAX : r % 4 == 0 ? rnd() :
					       r % 4 == 1 ? (rnd() & 0xffff) : consts[rnd() % nconsts];
				}
				w[0] = cuts[q], w[1] = arch[k];
				if (run(f, n, w) != run(out, len, w))
					b2 = true;
			}
			if (b1 || b2 || !same) {
				fprintf(stderr, "genfilter: bpfshrink: arch 0x%x nr %u differs: keeping libseccomp's\n",
					arch[k], cuts[q]);
				len = 0;
			}
		}
	}
	free(consts);
	free(id_at);
out:
	free(p.ops);
	free(p.order);
	free(c.orig_id);
	free(c.ret_id);
	free(c.ret_v);
	free(keep);
	free(syn);
	for (size_t k = 0; k <= narch; k++)
		free(pcs[k]);
	free(cuts);
	return len;
}
