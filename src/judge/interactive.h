/* `sandlock interactive` (interactive.c): the pair's types, shared by its
 * parts: the command line (interactive_args.c), the programs' CPU for the
 * idle rule (interactive_cpu.c) and the verdict (interactive_verdict.c). */
#ifndef SANDLOCK_INTERACTIVE_H
#define SANDLOCK_INTERACTIVE_H
#include "cli/cli.h"
#include "lib/internal.h"
#include "lib/json_out.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { SIDE_I, SIDE_S };
extern const char *const ia_side_name[2];

#define RELAY_BUF 65536
#define DEFAULT_IDLE_MS 5000
#define DEFAULT_TRANSCRIPT_CAP 65536

/* One direction: a side's stdout, read here, written into the other's stdin. */
struct dir {
	int from, to;            /* our ends, non-blocking; -1 once closed */
	char tag;                /* '<' interactor to submission, '>' back */
	char *buf;
	size_t off, len;
	bool sink_gone;          /* the reader of `to` went away */
	bool wrote_after_gone;   /* the writer sent bytes after that: the write
				    that follows fails as on a direct pipe */
	uint64_t bytes;
};

struct side {
	struct sl_cli cli;
	bool parsed;
	char **argv;             /* the argv sl_cli_parse read (ours) */
	pid_t pid;               /* the process running sandlock_run, 0 */
	int cancel_w;            /* closed: the run is stopped */
	int result_r;            /* its result comes back here */
	int in_r, out_w;         /* the program's stdin and stdout (its ends) */
	char *rbuf;
	size_t rlen, rcap;
	bool done;
	uint64_t seen_end;       /* the relay's turn in which this side's end
				    was first seen (its stdout's end, its
				    stdin's reader gone, or its result); 0 */
	bool cancelled;          /* we stopped it */
	int rc;                  /* sandlock_run's return */
	struct sandlock_result res;
	json_t *json;            /* its report */
};

struct transcript {
	bool on;
	char *buf;
	size_t len, cap;
	bool truncated;
	bool line_start;
	char last;
};

struct pair {
	struct side s[2];
	struct dir d[2];         /* d[SIDE_I]: interactor's stdout; d[SIDE_S] */
	uint64_t timeout_ms, idle_ms, transcript_cap;
	bool pin;
	const char *cpus;       /* --cpus LIST|auto, for the pair */
	char *report_path, *transcript_path;
	int report_fd;
	bool quiet, verbose, help;
	struct transcript tr;
	bool timed_out, idle, hangup;
	int signal;
	uint64_t turn;           /* the relay loop's turns, from 1 */
};

extern const char ia_usage[];
/* the command line into pp; 0, or 125 with err set */
int ia_parse(int argc, char **argv, struct pair *pp, char *err, size_t errlen);
/* clock ticks used by every descendant of the sides (seen: whether any) */
uint64_t ia_tree_ticks(const struct pair *pp, bool *seen);
/* the pair's one verdict from the two results, and the exit status */
const char *ia_decide(const struct pair *pp, int *status);
bool ia_setup_failed(const struct side *sd);
/* an end of side s that stops the other side at once */
bool ia_abnormal(const struct pair *pp, int s);

#endif
