/*
 * The layers a run had, must have and went without: the layers in place
 * when a run failed at a step, the check of --require, and the report's
 * missing line (each layer the host could not give, with why).
 */
#include "internal.h"

#include <stdio.h>

/* The step of the child that sets a layer up (spawn.c): a run that failed
 * at a step had only the layers of the steps before it.  Namespaces come
 * with the clone itself; a guard works only once the program runs. */
static enum sl_step layer_step(unsigned bit)
{
	switch (bit) {
	case SANDLOCK_LAYER_PDEATHSIG: return SL_STEP_PDEATHSIG;
	case SANDLOCK_LAYER_NO_NEW_PRIVS: return SL_STEP_NO_NEW_PRIVS;
	case SANDLOCK_LAYER_RLIMITS: return SL_STEP_RLIMITS;
	case SANDLOCK_LAYER_ISOLATE_TMP: return SL_STEP_MOUNTS;
	case SANDLOCK_LAYER_LANDLOCK: case SANDLOCK_LAYER_LANDLOCK_NET:
	case SANDLOCK_LAYER_LANDLOCK_SCOPE: return SL_STEP_LANDLOCK;
	case SANDLOCK_LAYER_PRIVDROP: return SL_STEP_PRIVDROP;
	case SANDLOCK_LAYER_SECCOMP: case SANDLOCK_LAYER_SECCOMP_NOTIFY:
	case SANDLOCK_LAYER_STRICT: return SL_STEP_SECCOMP;
	case SANDLOCK_LAYER_GUARD_PYTHON: case SANDLOCK_LAYER_GUARD_NODE:
	case SANDLOCK_LAYER_PRELOAD: return SL_STEP_COUNT;
	}
	return SL_STEP_SIGNALS;
}

/* The layers that were in place when the run failed at `step`
 * (SL_STEP_NONE: before the child existed, so none). */
unsigned sl_layers_set_up(unsigned layers, enum sl_step step)
{
	unsigned up = 0;
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if ((layers & (1u << i)) && step != SL_STEP_NONE && layer_step(1u << i) < step)
			up |= 1u << i;
	return up;
}

/* The option that turns a layer on, for messages. */
static const char *layer_option(unsigned bit)
{
	switch (bit) {
	case SANDLOCK_LAYER_LANDLOCK: case SANDLOCK_LAYER_LANDLOCK_NET:
	case SANDLOCK_LAYER_LANDLOCK_SCOPE: return "--landlock";
	case SANDLOCK_LAYER_ISOLATE_TMP: return "--isolate-tmp";
	case SANDLOCK_LAYER_STRICT: return "--strict";
	case SANDLOCK_LAYER_PRIVDROP: return "starting as root";
	case SANDLOCK_LAYER_WASM: return "--runtime wasm";
	case SANDLOCK_LAYER_USERNS: case SANDLOCK_LAYER_PIDNS: case SANDLOCK_LAYER_MOUNTNS:
	case SANDLOCK_LAYER_IPCNS: case SANDLOCK_LAYER_NETNS: case SANDLOCK_LAYER_UTSNS:
		return "--unshare on";
	}
	return NULL;
}

/* One line: the first layer in `missing`, and why this host lacks it
 * (from a full probe: only on this failure path). */
void sl_explain_missing(const struct sandlock_policy *p, unsigned missing,
			const char *what, bool unasked, struct sandlock_result *res)
{
	struct sandlock_features full;
	sl_probe_features(&full, true);
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		if (!(missing & bit))
			continue;
		if (full.state[i] != SANDLOCK_AVAILABLE) {
			sl_seterr(res, "%s %s is %s on this host (%s); %s", what,
				  sandlock_layer_name(bit), sandlock_state_name(full.state[i]),
				  full.why[i], sandlock_feature_remedy(&full, bit));
		} else if (unasked && layer_option(bit) && (p->require & bit)) {
			sl_seterr(res, "required layer %s is available here but was not asked for: add %s",
				  sandlock_layer_name(bit), layer_option(bit));
		} else {
			continue; /* the caller says what failed */
		}
		return;
	}
}

/* Check that every layer the caller required is going to be active. */
int sl_check_required(const struct sandlock_policy *p, unsigned active,
		      struct sandlock_result *res)
{
	unsigned missing = p->require & ~active;
	if (!missing)
		return 0;
	sl_explain_missing(p, missing, "required layer", true, res);
	return SANDLOCK_ENOSYS;
}

void sl_missing_add(struct sl_missing *m, const char *name, const char *why)
{
	if (m->n < SL_MISSING_MAX) {
		m->name[m->n] = name;
		snprintf(m->why[m->n++], sizeof(m->why[0]), "%s", why);
	}
}

void sl_missing_write(const struct sl_missing *m, char *line, size_t size)
{
	size_t n = 0;
	bool done[SL_MISSING_MAX] = { false };
	line[0] = 0;
	for (int i = 0; i < m->n && n < size; i++) {
		if (done[i])
			continue;
		for (int j = i; j < m->n && n < size; j++)
			if (!done[j] && !strcmp(m->why[j], m->why[i])) {
				done[j] = true;
				n += (size_t)snprintf(line + n, size - n, "%s%s", n ? ", " : "",
						      m->name[j]);
			}
		if (n < size)
			n += (size_t)snprintf(line + n, size - n, " (%s)", m->why[i]);
	}
}

/* The layers this host could not give the run. */
void sl_note_missing(struct sl_missing *m, const struct sandlock_features *f,
		     unsigned active, unsigned dropped, int dropped_errno)
{
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		/* a backend is chosen, not a layer the host lacks: asked for
		 * and missing, the run fails instead */
		if (bit == SANDLOCK_LAYER_WASM)
			continue;
		if (!(active & bit) && f->state[i] != SANDLOCK_AVAILABLE)
			sl_missing_add(m, sandlock_layer_name(bit), sandlock_state_name(f->state[i]));
	}
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		if (dropped & bit & ~active && f->state[i] == SANDLOCK_AVAILABLE)
			sl_missing_add(m, sandlock_layer_name(bit), strerror(dropped_errno));
	}
}
