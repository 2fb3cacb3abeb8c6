/* The batch's parts share the manifest's types (batch_manifest.c makes
 * them), the working directory's snapshot (batch_tree.c) and the run
 * (batch.c).  Nothing here is part of the library's interface: that is
 * sandlock_batch_* in include/sandlock.h. */
#ifndef SANDLOCK_BATCH_H
#define SANDLOCK_BATCH_H
#include "lib/internal.h"

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* ---- the manifest (batch_manifest.c) ---- */

struct opt { char *name, *value; };          /* value NULL: a flag */
struct opts { struct opt *v; size_t n; };
struct file_in { char *name, *src; };

struct step {
	bool present;
	int line;
	char **argv;                 /* NULL-terminated */
	struct opts opts;
	struct file_in *files;
	size_t nfiles;
	char *output;                /* run: a file the program writes */
	char *workdir;               /* checker: its working directory */
};

enum cmp { CMP_INHERIT = -1, CMP_EXACT = 0, CMP_TOKENS = 1 };

struct test {
	int line;
	char *name;
	char *stdin_path;
	char *expected;
	struct opts opts;
	int compare;
	char *output;
};

struct sandlock_batch {
	char *base;                  /* relative paths of the manifest start here */
	struct opts global;          /* the caller's, then settings.options */
	bool stop_on_failure;
	uint64_t budget_cpu_ms, budget_wall_ms;
	int compare;
	uint64_t max_copy;           /* one file copied in or read back */
	uint64_t max_tree;           /* the whole working directory */
	char *dir;                   /* where the box is made */
	bool keep;
	struct step compile, run, checker;
	struct test *tests;
	size_t ntests, cap;
};

/* the policy of a step: the batch's options, the step's, the test's */
int sl_batch_policy(const struct sandlock_batch *b, const struct opts *step,
		    const struct opts *test, struct sandlock_policy *p, char *err, size_t errlen);
/* every step's policy built once: a bad option is a manifest error (125)
 * before anything runs */
int sl_batch_check(const struct sandlock_batch *b, char *err, size_t errlen);

/* read a descriptor to its end, at most cap bytes (*over: there was more) */
int sl_batch_read_fd(int fd, uint64_t cap, char **out, size_t *len, bool *over);
int sl_batch_write_all(int fd, const char *p, size_t n);

/* ---- the working directory's snapshot (batch_tree.c) ---- */

struct entry {
	char *path;          /* relative to the working directory */
	bool dir;
	mode_t mode;
	char *data;          /* a file's bytes */
	size_t size;
	/* what was written, to compare with */
	ino_t ino;
	struct timespec ctime;
};

struct tree {
	struct entry *v;
	size_t n, cap;
	uint64_t bytes;
	struct timespec top_ctime;
	ino_t top_ino;
};

/* the tree under dirfd into memory: regular files and directories only,
 * each file up to max_file bytes, max_tree in all; anything else fails */
int sl_tree_read(struct tree *t, int dirfd, const char *prefix, uint64_t max_file,
		 uint64_t max_tree, int depth, char *err, size_t errlen);
/* whether what is under top is still what sl_tree_restore wrote */
bool sl_tree_intact(const struct tree *t, int top);
/* empty top and write the tree again from memory, without write permission */
int sl_tree_restore(struct tree *t, int top, char *err, size_t errlen);
void sl_tree_free(struct tree *t);
/* remove everything under dirfd (made writable first) */
int sl_batch_empty_dir(int dirfd);

#endif
