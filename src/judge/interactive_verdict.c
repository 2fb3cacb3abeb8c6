/* `sandlock interactive`: one verdict for the pair from its two results. */
#include "interactive.h"


/* ---- the verdict ---- */

static bool limit_verdict(enum sandlock_verdict v)
{
	return v == SANDLOCK_CPU_LIMIT || v == SANDLOCK_MEMORY_LIMIT || v == SANDLOCK_WALL_LIMIT ||
	       v == SANDLOCK_FILE_SIZE_LIMIT || v == SANDLOCK_OUTPUT_LIMIT ||
	       v == SANDLOCK_SYSCALL_BLOCKED;
}

bool ia_setup_failed(const struct side *sd)
{
	return sd->rc != 0 || sd->res.verdict == SANDLOCK_SETUP_FAILED;
}

/* The side's own failure is the other side's going: killed by SIGPIPE, or
 * a non-zero exit (EPIPE), after writing to a reader that was gone. */
static bool broken_pipe(const struct pair *pp, int s)
{
	const struct sandlock_result *r = &pp->s[s].res;
	return pp->d[s].wrote_after_gone &&
	       ((r->verdict == SANDLOCK_SIGNALED && r->signal == SIGPIPE) ||
		(r->verdict == SANDLOCK_RUNTIME_ERROR && r->signal == 0));
}

/* Did the submission fail by itself (crash, non-zero exit, a signal it
 * raised), not as a consequence of the interactor's end? */
static bool submission_failed(const struct pair *pp)
{
	const struct side *sd = &pp->s[SIDE_S];
	enum sandlock_verdict v = sd->res.verdict;
	if (v == SANDLOCK_OK_VERDICT || broken_pipe(pp, SIDE_S))
		return false;
	if (v == SANDLOCK_SIGNALED && sd->cancelled)
		return false;
	return v == SANDLOCK_RUNTIME_ERROR || v == SANDLOCK_SIGNALED;
}

/* The submission's end was seen no later than the interactor's: the
 * interactor could not have ended because of anything but it (the end of
 * its input, a broken pipe, our cancel).  Results come back in any order
 * (a supervisor slowed by the machine's load reports late); the ends of
 * the streams, which pass through the relay, tell the order. */
static bool submission_first(const struct pair *pp)
{
	uint64_t s = pp->s[SIDE_S].seen_end, i = pp->s[SIDE_I].seen_end;
	return s && (!i || s <= i);
}

/* submission_failed(), for the verdict: a run we cancelled whose program
 * had already ended by itself (a crash signal, or a non-zero exit: a run
 * we stop ends by SIGKILL) failed by itself too when its end came first. */
static bool submission_failed_itself(const struct pair *pp)
{
	const struct sandlock_result *r = &pp->s[SIDE_S].res;
	if (submission_failed(pp))
		return true;
	return r->verdict == SANDLOCK_SIGNALED && pp->s[SIDE_S].cancelled &&
	       submission_first(pp) && !broken_pipe(pp, SIDE_S) && r->signal != SIGKILL &&
	       (r->signal != 0 || r->exit_code != 0);
}

/* An end that stops the other side at once. */
bool ia_abnormal(const struct pair *pp, int s)
{
	const struct side *sd = &pp->s[s];
	if (ia_setup_failed(sd) || limit_verdict(sd->res.verdict))
		return true;
	if (s == SIDE_I)
		return sd->res.verdict != SANDLOCK_OK_VERDICT;
	return submission_failed(pp);
}

const char *ia_decide(const struct pair *pp, int *status)
{
	const struct side *in = &pp->s[SIDE_I], *su = &pp->s[SIDE_S];
	const struct sandlock_result *ir = &in->res, *sr = &su->res;
	if (pp->signal) {
		*status = 128 + pp->signal;
		return "signaled";
	}
	if (pp->hangup) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "signaled";
	}
	if (ia_setup_failed(in)) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "interactor_failed";
	}
	if (ia_setup_failed(su)) {
		*status = sr->status ? sr->status : SANDLOCK_EXIT_FAILURE;
		return "setup_failed";
	}
	if (pp->timed_out) {
		*status = SANDLOCK_EXIT_TIMEOUT;
		return "wall_limit";
	}
	if (pp->idle) {
		*status = SANDLOCK_EXIT_TIMEOUT;
		return "idle";
	}
	if (limit_verdict(sr->verdict) && !(su->cancelled && sr->verdict == SANDLOCK_SIGNALED)) {
		*status = sr->status;
		return sandlock_verdict_name(sr->verdict);
	}
	/* the submission's own crash or non-zero exit, when its end came
	 * first: whatever the interactor did after (read the end of its input,
	 * was cut by a broken pipe or by us, crashed on it) is not held
	 * against it, nor the crash against the interactor */
	bool s_failed = submission_failed_itself(pp), s_first = submission_first(pp);
	bool runtime_error = s_failed && s_first;
	/* the interactor ended as no judge should: the judge's fault */
	bool i_rejected = ir->verdict == SANDLOCK_RUNTIME_ERROR && ir->signal == 0;
	bool i_cut = broken_pipe(pp, SIDE_I) || (in->cancelled && ir->verdict == SANDLOCK_SIGNALED);
	if (!runtime_error && ir->verdict != SANDLOCK_OK_VERDICT && !i_rejected && !i_cut) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "interactor_failed";
	}
	/* or whenever the interactor accepted; not when the interactor had
	 * already rejected it (its end first) */
	if (runtime_error || (s_failed && ir->verdict == SANDLOCK_OK_VERDICT)) {
		int st = sr->status;
		if (st == 0 || st == 1 || st == SANDLOCK_EXIT_TIMEOUT || st == SANDLOCK_EXIT_FAILURE)
			st = 2;
		*status = st;
		return "runtime_error";
	}
	if (ir->verdict != SANDLOCK_OK_VERDICT) {
		*status = 1;
		return "wrong_answer";
	}
	*status = 0;
	return "ok";
}
