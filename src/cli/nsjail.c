/*
 * `nsjail ARGS...` (the binary called by that name, or `sandlock nsjail
 * ARGS...`): the command lines graders already give nsjail, translated into
 * our policy, with nsjail's exit statuses.  Graders that wrap their workers
 * in nsjail (shimmy's sandbox.go, among others) then run on hosts where
 * nsjail cannot (a default container without namespaces) with what we have
 * there, and fail closed where what they asked for is missing.
 *
 * The rule: every option either means here what it means to nsjail, or is
 * refused by name in one line (status 125) before anything runs.  An
 * option is never dropped in silence.  See sandlock(1), NSJAIL.
 */
#include "cli.h"
#include "lib/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* nsjail's own status for a jail it could not start (its LOG_F and the
 * child's _exit(0xff) before execve): setup failures, a command that
 * cannot be executed or is not found. */
#define NSJ_EXIT_SETUP 255

struct args {
	char **v;
	size_t n, cap;
	bool oom;
};

static void add(struct args *a, const char *s)
{
	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	if (!(a->v[a->n] = strdup(s))) {
		a->oom = true;
		return;
	}
	a->v[++a->n] = NULL;
}

static void add2(struct args *a, const char *opt, const char *val)
{
	add(a, opt);
	add(a, val);
}

static void args_free(struct args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

enum {
	NO_KEEPENV = 'e', NO_ENV = 'E', NO_USER = 'u', NO_GROUP = 'g', NO_CWD = 'D',
	NO_TIME = 't', NO_RO = 'R', NO_RW = 'B', NO_TMPFS = 'T', NO_CHROOT = 'c',
	NO_HOST = 'H', NO_LOG = 'l', NO_LOGFD = 'L', NO_MODE = 'M', NO_NONET = 'N',
	NO_VERB = 'v', NO_QUIET = 'q', NO_RQUIET = 'Q', NO_HELP = 'h',
	NO_RL_AS = 0x201, NO_RL_CPU, NO_RL_FSIZE, NO_RL_NOFILE, NO_RL_NPROC, NO_RL_STACK,
	NO_RL_CORE, NO_DIS_USER, NO_DIS_NS, NO_DIS_PID, NO_DIS_IPC, NO_DIS_UTS,
	NO_DIS_CGROUP, NO_MAXCPUS, NO_DIS_PROC, NO_SILENT, NO_STDERR_NULL,
	NO_SECCOMP_STR, NO_SECCOMP_POL, NO_IFACE_NO_LO, NO_ENA_CGROUP,
	/* ours, for a grader that wants more than a status */
	NO_REPORT, NO_REPORTFD, NO_BESTEFFORT, NO_REQUIRE,
};

static const struct option nsj_options[] = {
	{ "mode", required_argument, 0, NO_MODE },
	{ "keep_env", no_argument, 0, NO_KEEPENV },
	{ "env", required_argument, 0, NO_ENV },
	{ "user", required_argument, 0, NO_USER },
	{ "group", required_argument, 0, NO_GROUP },
	{ "cwd", required_argument, 0, NO_CWD },
	{ "time_limit", required_argument, 0, NO_TIME },
	{ "bindmount_ro", required_argument, 0, NO_RO },
	{ "bindmount", required_argument, 0, NO_RW },
	{ "tmpfsmount", required_argument, 0, NO_TMPFS },
	{ "chroot", required_argument, 0, NO_CHROOT },
	{ "hostname", required_argument, 0, NO_HOST },
	{ "log", required_argument, 0, NO_LOG },
	{ "log_fd", required_argument, 0, NO_LOGFD },
	{ "verbose", no_argument, 0, NO_VERB },
	{ "quiet", no_argument, 0, NO_QUIET },
	{ "really_quiet", no_argument, 0, NO_RQUIET },
	{ "help", no_argument, 0, NO_HELP },
	{ "rlimit_as", required_argument, 0, NO_RL_AS },
	{ "rlimit_cpu", required_argument, 0, NO_RL_CPU },
	{ "rlimit_fsize", required_argument, 0, NO_RL_FSIZE },
	{ "rlimit_nofile", required_argument, 0, NO_RL_NOFILE },
	{ "rlimit_nproc", required_argument, 0, NO_RL_NPROC },
	{ "rlimit_stack", required_argument, 0, NO_RL_STACK },
	{ "rlimit_core", required_argument, 0, NO_RL_CORE },
	{ "disable_clone_newnet", no_argument, 0, NO_NONET },
	{ "disable_clone_newuser", no_argument, 0, NO_DIS_USER },
	{ "disable_clone_newns", no_argument, 0, NO_DIS_NS },
	{ "disable_clone_newpid", no_argument, 0, NO_DIS_PID },
	{ "disable_clone_newipc", no_argument, 0, NO_DIS_IPC },
	{ "disable_clone_newuts", no_argument, 0, NO_DIS_UTS },
	{ "disable_clone_newcgroup", no_argument, 0, NO_DIS_CGROUP },
	{ "enable_clone_newcgroup", no_argument, 0, NO_ENA_CGROUP },
	{ "iface_no_lo", no_argument, 0, NO_IFACE_NO_LO },
	{ "max_cpus", required_argument, 0, NO_MAXCPUS },
	{ "disable_proc", no_argument, 0, NO_DIS_PROC },
	{ "silent", no_argument, 0, NO_SILENT },
	{ "stderr_to_null", no_argument, 0, NO_STDERR_NULL },
	{ "seccomp_string", required_argument, 0, NO_SECCOMP_STR },
	{ "seccomp_policy", required_argument, 0, NO_SECCOMP_POL },
	{ "report", required_argument, 0, NO_REPORT },
	{ "report-fd", required_argument, 0, NO_REPORTFD },
	{ "best-effort", no_argument, 0, NO_BESTEFFORT },
	{ "require", required_argument, 0, NO_REQUIRE },
	{ 0, 0, 0, 0 },
};

/* nsjail's short options, as its cmdline.cc names them; the ones without a
 * meaning here (-C, -x, -p, -i, -d, -U, -G, -m, -s, -I) are in so that they
 * are refused by their names, not taken for something else. */
static const char nsj_short[] = "+M:eE:u:g:D:t:R:B:T:c:H:l:L:vqQhNC:x:p:i:dU:G:m:s:P:I:";

struct nsj {
	char mode;              /* 'o' (nsjail's default) or 'e' */
	bool keep_env, quiet, really_quiet, verbose, best_effort, chroot_root, disable_proc;
	bool dis_net, dis_user, dis_ns, dis_pid, dis_ipc, dis_uts, no_lo;
	bool any_bind, tmpfs_tmp, tmpfs_shm, tmpfs_ours, time_given;
	unsigned devs_bound;    /* sl_landlock_default_rw[i] seen through a bind */
	const char *user, *group, *time_limit, *log, *cwd, *hostname;
	int log_fd;
	unsigned long max_cpus;
	struct args binds;      /* "SRC:DST" of binds elsewhere */
	struct args same;       /* SRC of binds at SRC: Landlock rules */
	struct args tmpfs;      /* --tmpfsmount DST other than /tmp and /dev/shm */
};

static void nsj_free(struct nsj *n)
{
	args_free(&n->binds);
	args_free(&n->same);
	args_free(&n->tmpfs);
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* An nsjail rlimit value: a number (in MB for the sizes), max/hard, def/soft
 * (the limit we hold now), inf.  Into our option's unit: seconds, MB, or a
 * count; 0 is unlimited, as our options read it. */
static int rlimit_value(const char *opt, const char *v, int resource, bool mb, uint64_t max,
			char *out, size_t outlen, char *err, size_t errlen)
{
	uint64_t n;
	struct rlimit rl;
	rlim_t cur = RLIM_INFINITY;
	bool have = false;
	if (!strcmp(v, "inf")) {
		have = true;
	} else if (!strcmp(v, "max") || !strcmp(v, "hard") || !strcmp(v, "def") ||
		   !strcmp(v, "soft")) {
		if (getrlimit(resource, &rl) != 0)
			FAIL("--%s %s: cannot read our own limit (%s)", opt, v, strerror(errno));
		cur = (v[0] == 'm' || v[0] == 'h') ? rl.rlim_max : rl.rlim_cur;
		have = true;
	}
	if (have) {
		if (cur == RLIM_INFINITY)
			n = 0;
		else
			n = mb ? (cur + (1u << 20) - 1) >> 20 : cur;
		/* a limit we hold that is larger than our options count */
		if (n > max)
			n = 0;
	} else if (sl_parse_u64(v, max, &n) != 0) {
		FAIL("invalid value for --%s: '%s' (a number%s, max, hard, def, soft or inf)", opt, v,
		     mb ? " of MB" : "");
	} else if (n == 0 && resource != RLIMIT_CORE) {
		/* nsjail sets a limit of 0 as given; ours would be "none" */
		FAIL("--%s 0: a limit of nothing; give at least 1", opt);
	}
	snprintf(out, outlen, "%llu", (unsigned long long)n);
	return 0;
}

/* "inside[:outside[:count]]", a name or a number: the id the program has
 * outside any user namespace (the one that matters to the host). */
static int outside_id(const char *opt, const char *s, bool group, char *out, size_t outlen,
		      char *err, size_t errlen)
{
	char buf[256];
	if (strlen(s) >= sizeof(buf) || !*s)
		FAIL("invalid value for --%s: '%s'", opt, s);
	strcpy(buf, s);
	char *id = buf, *c = strchr(buf, ':');
	if (c) {
		*c = 0;
		char *c2 = strchr(c + 1, ':');
		if (c2) {
			if (strcmp(c2 + 1, "1"))
				FAIL("--%s %s: a range of ids maps a user namespace's; we run the program "
				     "under one id: give inside:outside", opt, s);
			*c2 = 0;
		}
		id = c + 1;
	}
	uint64_t v;
	if (sl_parse_u64(id, 0xfffffffeull, &v) != 0) {
		/* the files themselves: a static binary has no name service */
		FILE *f = fopen(group ? "/etc/group" : "/etc/passwd", "re");
		bool found = false;
		if (f && !group)
			for (struct passwd *pw; !found && (pw = fgetpwent(f));)
				if (!strcmp(pw->pw_name, id))
					found = true, v = pw->pw_uid;
		if (f && group)
			for (struct group *gr; !found && (gr = fgetgrent(f));)
				if (!strcmp(gr->gr_name, id))
					found = true, v = gr->gr_gid;
		if (f)
			fclose(f);
		if (!found)
			FAIL("invalid value for --%s: '%s' (no such %s)", opt, s, group ? "group" : "user");
	}
	if (v == 0)
		FAIL("--%s %s: the program never runs as root here; give an unprivileged id", opt, s);
	snprintf(out, outlen, "%llu", (unsigned long long)v);
	return 0;
}

/* SRC[:DST] of a bind mount: a Landlock rule at SRC.  A DST elsewhere
 * needs a mount of the run's own at DST, which we do not make. */
static int bind_rule(struct args *a, struct nsj *n, const char *opt, const char *val, bool rw,
		     char *err, size_t errlen)
{
	char buf[4096];
	if (strlen(val) >= sizeof(buf) || !*val)
		FAIL("invalid value for --%s: '%s'", opt, val);
	strcpy(buf, val);
	char *dst = strchr(buf, ':');
	if (dst) {
		*dst++ = 0;
		if (!strcmp(buf, dst))
			dst = NULL;
	}
	if (buf[0] != '/' || (dst && dst[0] != '/'))
		FAIL("--%s %s: absolute paths, please", opt, val);
	if (dst) {
		/* a mount of the run's own at DST: checked once every option
		 * is read (translate) */
		char pair[8200];
		snprintf(pair, sizeof(pair), "%s:%s", buf, dst);
		if (strchr(dst, ':') || !strcmp(dst, "/"))
			FAIL("--%s %s: SRC:DST, two paths without ':' (DST not /)", opt, val);
		add(&n->binds, pair);
	}
	add2(a, rw ? "--rw" : "--ro", buf);
	n->any_bind = true;
	if (!dst)
		add(&n->same, buf);
	if (!dst) {
		size_t len = strlen(buf);
		while (len > 1 && buf[len - 1] == '/')
			len--;
		for (unsigned i = 0; sl_landlock_default_rw[i]; i++) {
			const char *d = sl_landlock_default_rw[i];
			if (len == 1 || (!strncmp(d, buf, len) && (d[len] == 0 || d[len] == '/')))
				n->devs_bound |= 1u << i;
		}
	}
	return 0;
}

/* /dev/null, /dev/zero, /dev/full where a bind shows them: nsjail's jail
 * writes to a device node on a read-only bind (the kernel refuses writes
 * on a read-only mount to files, directories and links only), and
 * programs write to /dev/null all the time (subprocess.DEVNULL, >/dev/null).
 * The list is our default allow-list's: the rest of /dev stays as bound. */
static void device_rules(struct args *a, const struct nsj *n)
{
	for (unsigned i = 0; sl_landlock_default_rw[i]; i++) {
		struct stat st;
		/* under a --tmpfsmount (-T /dev) only a device bound itself
		 * is there (a bind of its own then) */
		bool hidden = false;
		for (size_t j = 0; j < n->tmpfs.n; j++)
			hidden |= sl_path_under(sl_landlock_default_rw[i], n->tmpfs.v[j]);
		if (hidden && !(n->devs_bound & (1u << i)))
			continue;
		if ((n->chroot_root || (n->devs_bound & (1u << i))) &&
		    stat(sl_landlock_default_rw[i], &st) == 0 && S_ISCHR(st.st_mode))
			add2(a, "--rw", sl_landlock_default_rw[i]);
	}
}

/* --tmpfsmount DST: /tmp and /dev/shm are the run's own already (its
 * tmpfs, made writable); elsewhere an empty directory of that tmpfs at
 * DST (the policy's tmpfs list).  All of them count against the run's
 * memory, under one size, where nsjail gives each 4 MiB of its own. */
static int tmpfs_rule(struct nsj *n, const char *val, char *err, size_t errlen)
{
	char buf[4096];
	size_t l = strlen(val);
	if (l >= sizeof(buf) || val[0] != '/')
		FAIL("--tmpfsmount %s: an absolute path, please", val);
	while (l > 1 && val[l - 1] == '/')
		l--;
	memcpy(buf, val, l);
	buf[l] = 0;
	if (!strcmp(buf, "/tmp"))
		n->tmpfs_tmp = true;
	else if (!strcmp(buf, "/dev/shm"))
		n->tmpfs_shm = true;
	else if (!sl_tmpfs_dst_ok(buf))
		FAIL("--tmpfsmount %s: not a place for a tmpfs here (/, /proc, /sys, or a "
		     "path with \"..\")", val);
	else
		add(&n->tmpfs, buf);
	return 0;
}

/* NULL where a namespace (layer) can be the run's own here, else why not
 * (the probe runs once, on the first question) */
static const char *no_ns_here(struct sandlock_features *f, bool *probed, unsigned layer)
{
	int i = __builtin_ctz(layer);
	if (!*probed)
		sandlock_probe_features(f);
	*probed = true;
	if (f->state[i] == SANDLOCK_AVAILABLE)
		return NULL;
	return f->why[i][0] ? f->why[i] : "refused";
}

static int translate(int argc, char **argv, struct nsj *n, struct args *a, char *missing,
		     size_t missinglen, char *err, size_t errlen)
{
	/* nsjail's defaults (cmdline.cc), set first so that the command
	 * line's options change them */
	char rl_as[32] = "4096", rl_cpu[32] = "600", rl_fsize[32] = "1", rl_nofile[32] = "32",
	     rl_nproc[32], rl_stack[32];
	if (rlimit_value("rlimit_nproc", "soft", RLIMIT_NPROC, false, 1u << 22, rl_nproc,
			 sizeof(rl_nproc), err, errlen) ||
	    rlimit_value("rlimit_stack", "soft", RLIMIT_STACK, true, (1ull << 43) - 1, rl_stack,
			 sizeof(rl_stack), err, errlen))
		return -1;
	char v[64];
	int c, li = -1;
	bool mode_given = false;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, nsj_short, nsj_options, &li)) != -1) {
		const char *o = optarg;
		const char *name = li >= 0 ? nsj_options[li].name : NULL;
		li = -1;
		switch (c) {
		case NO_MODE:
			if (!strcmp(o, "e") || !strcmp(o, "o")) {
				if (mode_given && n->mode != o[0])
					FAIL("--mode given twice (%c, then %s)", n->mode, o);
				n->mode = o[0];
				mode_given = true;
			} else if (!strcmp(o, "l") || !strcmp(o, "r")) {
				FAIL("--mode %s: we run one program per call (modes o and e); a grader "
				     "starts one call per run", o);
			} else {
				FAIL("invalid value for --mode: '%s' (o or e)", o);
			}
			break;
		case NO_KEEPENV: n->keep_env = true; break;
		case NO_ENV:
			if (strchr(o, '=')) {
				add2(a, "--env", o);
			} else if (!*o || strpbrk(o, "*?[")) {
				FAIL("invalid value for --env: '%s' (NAME=VALUE, or NAME to pass ours)", o);
			} else {
				/* nsjail: the variable as we have it; unset: left out */
				add2(a, "--keep-env", o);
			}
			break;
		case NO_USER: n->user = o; break;
		case NO_GROUP: n->group = o; break;
		case NO_CWD: add2(a, "--workdir", o); n->cwd = o; break;
		case NO_TIME: {
			uint64_t t;
			if (sl_parse_u64(o, 1000000000ull, &t) != 0)
				FAIL("invalid value for --time_limit: '%s' (whole seconds, 0 for none)", o);
			n->time_limit = o;
			n->time_given = true;
			break;
		}
		case NO_RO: case NO_RW:
			if (bind_rule(a, n, c == NO_RO ? "bindmount_ro" : "bindmount", o, c == NO_RW,
				      err, errlen))
				return -1;
			break;
		case NO_TMPFS:
			if (tmpfs_rule(n, o, err, errlen))
				return -1;
			break;
		case NO_CHROOT:
			if (strcmp(o, "/"))
				FAIL("--chroot %s: we do not change the program's root; give --chroot / "
				     "(the whole file system, read-only) or bind what it needs with "
				     "--bindmount_ro", o);
			n->chroot_root = true;
			break;
		case NO_HOST:
			if (!*o || strlen(o) > 64)
				FAIL("invalid value for --hostname: '%s' (1 to 64 bytes)", o);
			n->hostname = o;
			break;
		case NO_LOG: n->log = o; break;
		case NO_LOGFD: {
			uint64_t fd;
			if (sl_parse_u64(o, 1u << 20, &fd) != 0 || fcntl((int)fd, F_GETFD) < 0)
				FAIL("invalid value for --log_fd: '%s' (an open descriptor)", o);
			n->log_fd = (int)fd;
			break;
		}
		case NO_VERB: n->verbose = true; break;
		case NO_QUIET: n->quiet = true; break;
		case NO_RQUIET: n->really_quiet = n->quiet = true; break;
		case NO_HELP:
			FAIL("this is sandlock answering as nsjail: see sandlock(1), NSJAIL, for the "
			     "options it takes");
		case NO_RL_AS: case NO_RL_CPU: case NO_RL_FSIZE: case NO_RL_NOFILE:
		case NO_RL_NPROC: case NO_RL_STACK: {
			static const struct { int res; bool mb; uint64_t max; } t[] = {
				{ RLIMIT_AS, true, (1ull << 43) - 1 }, { RLIMIT_CPU, false, 1000000000ull },
				{ RLIMIT_FSIZE, true, (1ull << 43) - 1 }, { RLIMIT_NOFILE, false, 1u << 20 },
				{ RLIMIT_NPROC, false, 1u << 22 }, { RLIMIT_STACK, true, (1ull << 43) - 1 },
			};
			char *dst[] = { rl_as, rl_cpu, rl_fsize, rl_nofile, rl_nproc, rl_stack };
			int i = c - NO_RL_AS;
			if (rlimit_value(name ? name : "rlimit", o, t[i].res, t[i].mb, t[i].max, dst[i],
					 32, err, errlen))
				return -1;
			break;
		}
		case NO_RL_CORE:
			/* we never let a run dump core: 0 is what we do anyway */
			if (strcmp(o, "0"))
				FAIL("--rlimit_core %s: a run never dumps core here (its memory may hold "
				     "what the grader hides); leave it out or give 0", o);
			break;
		case NO_NONET: n->dis_net = true; break;
		case NO_DIS_USER: n->dis_user = true; break;
		case NO_DIS_NS: n->dis_ns = true; break;
		case NO_DIS_PID: n->dis_pid = true; break;
		case NO_DIS_IPC: n->dis_ipc = true; break;
		case NO_DIS_UTS: n->dis_uts = true; break;
		case NO_DIS_CGROUP:
			/* we make no cgroup namespace, flag or not: sandlock(1),
			 * NSJAIL, says what the program sees for it */
			break;
		case NO_ENA_CGROUP:
			FAIL("--enable_clone_newcgroup: we make no cgroup namespace (the program's "
			     "/proc/self/cgroup names the run's cgroup on the host); leave it out");
		case NO_IFACE_NO_LO: n->no_lo = true; break;
		case NO_DIS_PROC: n->disable_proc = true; break;
		case NO_MAXCPUS: {
			uint64_t m;
			if (sl_parse_u64(o, 1u << 16, &m) != 0)
				FAIL("invalid value for --max_cpus: '%s' (a number, 0 for no limit)", o);
			n->max_cpus = (unsigned long)m;
			break;
		}
		case NO_SILENT:
			add2(a, "--stdin", "/dev/null");
			add2(a, "--stdout", "/dev/null");
			add2(a, "--stderr", "/dev/null");
			break;
		case NO_STDERR_NULL: add2(a, "--stderr", "/dev/null"); break;
		case NO_SECCOMP_STR: case NO_SECCOMP_POL:
			FAIL("--%s: Kafel policies are not compiled here; our syscall filters are "
			     "chosen with sandlock's --profile (c, cpp, go, java, node, python, or a "
			     "file: see sandlock --show-profile NAME) and --strict",
			     c == NO_SECCOMP_STR ? "seccomp_string" : "seccomp_policy");
		case NO_REPORT: add2(a, "--report", o); break;
		case NO_REPORTFD: add2(a, "--report-fd", o); break;
		case NO_BESTEFFORT: n->best_effort = true; add(a, "--best-effort"); break;
		case NO_REQUIRE: add2(a, "--require", o); break;
		case ':':
			FAIL("option %s needs a value", argv[optind - 1]);
		default: {
			const char *bad = argv[optind - 1];
			if (c > 0 && c < 256 && c != '?')
				snprintf(v, sizeof(v), "-%c", c);
			else if (optopt > 0 && optopt < 256)
				snprintf(v, sizeof(v), "-%c", optopt);
			else
				snprintf(v, sizeof(v), "%.60s", bad);
			FAIL("nsjail option %s: not supported here (its meaning cannot be honoured "
			     "by this sandbox); leave it out, or see sandlock(1), NSJAIL", v);
		}
		}
	}
	if (optind >= argc || !argv[optind][0])
		FAIL("no command given (usage: nsjail [OPTIONS] -- COMMAND [ARGS...])");

	/* The file system: nsjail's jail without --chroot is an empty root
	 * with the bind mounts in it; --chroot / is the whole file system,
	 * read-only. */
	if (n->chroot_root)
		add2(a, "--ro", "/");
	if (!n->any_bind && !n->chroot_root)
		FAIL("no --chroot / and no --bindmount: nsjail's jail would hold nothing to run; "
		     "bind what the program needs (--bindmount_ro /usr ...) or give --chroot /");
	device_rules(a, n);
	if (!n->disable_proc)
		add2(a, "--ro", "/proc");
	/* the binds are the whole list (our default allow-list would add the
	 * working directory read-write, where nsjail's --cwd inside a
	 * read-only bind is read-only) */
	add(a, "--landlock");
	/* a mount namespace of the run's own: learnt once, where it matters */
	struct sandlock_features f;
	bool probed = false;
	const char *no_ns;
	if (n->tmpfs_tmp || n->tmpfs_shm || n->tmpfs.n) {
		if (n->dis_ns)
			FAIL("--tmpfsmount needs a mount namespace of the run's own, and "
			     "--disable_clone_newns is given");
		if (!(no_ns = no_ns_here(&f, &probed, SANDLOCK_LAYER_MOUNTNS))) {
			/* the run's own tmpfs there: all of it is the program's
			 * (host paths kept visible under it, bound back, are
			 * read-only mounts: see namespaces.c); a read-only bind
			 * under /tmp is one of those */
			n->tmpfs_ours = true;
			if (n->tmpfs_tmp)
				add2(a, "--rw", "/tmp");
			if (n->tmpfs_shm)
				add2(a, "--rw", "/dev/shm");
			/* elsewhere on a directory that exists, or made in a
			 * place of the run's own */
			for (size_t i = 0; i < n->tmpfs.n; i++) {
				const char *d = n->tmpfs.v[i];
				bool own = sl_path_under(d, "/tmp");
				for (size_t j = 0; j < n->tmpfs.n; j++)
					own |= j != i && sl_path_under(d, n->tmpfs.v[j]);
				struct stat st;
				if (!own && (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)))
					FAIL("--tmpfsmount %s: no such directory here, and we make mount "
					     "points only in the run's own tmpfs, never on the host", d);
			}
			/* a bind at its own path inside one (-T /dev -R /dev/null)
			 * is a mount there, or the tmpfs would hide it */
			for (size_t i = 0; i < n->same.n; i++)
				for (size_t j = 0; j < n->tmpfs.n; j++)
					if (sl_path_under(n->same.v[i], n->tmpfs.v[j])) {
						char pair[8200];
						snprintf(pair, sizeof(pair), "%s:%s", n->same.v[i],
							 n->same.v[i]);
						add(&n->binds, pair);
						break;
					}
		} else if (n->best_effort) {
			/* a private directory (TMPDIR) only, and the report
			 * says so; elsewhere the host's directory, as bound */
			snprintf(missing, missinglen, "tmpfsmount (no mount namespace here)");
			while (n->tmpfs.n)
				free(n->tmpfs.v[--n->tmpfs.n]);
		} else {
			FAIL("--tmpfsmount: no mount namespace of the run's own on this host (%.200s); "
			     "leave it out, or add --best-effort to run without it, reported",
			     no_ns);
		}
		if (n->tmpfs_tmp || n->tmpfs_shm)
			add(a, "--isolate-tmp");
	}
	if (n->binds.n) {
		/* binds elsewhere: mounts of the run's own, where a mount
		 * namespace is ours; the destination exists, or is made in
		 * the run's own tmpfs (--tmpfsmount), never on the host */
		if (n->dis_ns)
			FAIL("--bindmount %s: a bind elsewhere needs a mount namespace, and "
			     "--disable_clone_newns is given", n->binds.v[0]);
		if ((no_ns = no_ns_here(&f, &probed, SANDLOCK_LAYER_MOUNTNS)))
			FAIL("--bindmount %s: no mount namespace of the run's own on this host (%.200s): "
			     "bind SRC at SRC, or change the program's paths", n->binds.v[0], no_ns);
		for (size_t i = 0; i < n->binds.n; i++) {
			const char *d = strchr(n->binds.v[i], ':') + 1;
			struct stat st;
			bool in_tmp = !strncmp(d, "/tmp/", 5) && n->tmpfs_tmp;
			for (size_t j = 0; j < n->tmpfs.n; j++)
				in_tmp |= sl_path_under(d, n->tmpfs.v[j]);
			if (!in_tmp && stat(d, &st) != 0)
				FAIL("--bindmount %s: %s does not exist, and we make mount points only "
				     "in the run's own tmpfs (--tmpfsmount), never on the host",
				     n->binds.v[i], d);
		}
	}

	/* Limits, in our options (sandlock(1), NSJAIL, says where they differ) */
	add2(a, "--mem", !strcmp(rl_as, "0") ? "0" : rl_as);
	add2(a, "--cpu", rl_cpu);
	add2(a, "--fsize", rl_fsize);
	add2(a, "--nofile", rl_nofile);
	add2(a, "--nproc", rl_nproc);
	add2(a, "--stack", !strcmp(rl_stack, "0") ? "0" : rl_stack);
	/* nsjail's command line has no time limit unless told (parseArgs sets
	 * 0; the 600 its --help names is config.proto's, for --config files);
	 * mode e has no monitor, but a --time_limit given is a limit we keep */
	if (n->time_given)
		add2(a, "--timeout", n->time_limit);

	if (!n->keep_env)
		add(a, "--clean-env");
	/* nsjail's own network namespace has a loopback unless --iface_no_lo;
	 * ours has none either way.  With --disable_clone_newnet nsjail skips
	 * --iface_no_lo (the host's network, lo and all): refused, not read
	 * one way or the other */
	if (n->no_lo && n->dis_net)
		FAIL("--iface_no_lo with --disable_clone_newnet: nsjail then keeps the host's "
		     "network and ignores it; give --iface_no_lo alone for no network");
	if (!n->dis_net)
		add(a, "--no-network");
	if (n->user && outside_id("user", n->user, false, v, sizeof(v), err, errlen) == 0) {
		char ug[160];
		char g[64] = "";
		if (n->group && outside_id("group", n->group, true, g, sizeof(g), err, errlen))
			return -1;
		snprintf(ug, sizeof(ug), "%s%s%s", v, g[0] ? ":" : "", g);
		add2(a, "--user", ug);
	} else if (n->user) {
		return -1;
	} else if (n->group) {
		FAIL("--group without --user: give both (the program's uid is --user's)");
	}

	/* Namespaces: what nsjail would have made is required (it fails
	 * where it cannot make them, and so do we), except with --best-effort;
	 * what is disabled is not made. */
	char req[128] = "";
	bool root = geteuid() == 0;
#define REQ(flag, name) if (!(flag)) snprintf(req + strlen(req), sizeof(req) - strlen(req), \
					       "%s%s", req[0] ? "," : "", name)
	REQ(n->dis_pid, "pidns");
	REQ(n->dis_ns && !n->tmpfs_ours, "mountns");
	REQ(n->dis_ipc, "ipcns");
	REQ(n->dis_uts, "utsns");
	REQ(n->dis_net, "netns");
	/* root needs no user namespace of its own to make the others */
	REQ(n->dis_user || root, "userns");
#undef REQ
	if (n->hostname) {
		/* nsjail names the jail's host in its uts namespace: where
		 * none is ours, refused before anything runs */
		if (n->dis_uts)
			FAIL("--hostname needs a uts namespace, and --disable_clone_newuts is given");
		if ((no_ns = no_ns_here(&f, &probed, SANDLOCK_LAYER_UTSNS)))
			FAIL("--hostname %s: no uts namespace of the run's own on this host (%.200s); "
			     "leave it out", n->hostname, no_ns);
	}
	if (req[0] && !n->best_effort)
		add2(a, "--require", req);
	if (!req[0])
		add2(a, "--unshare", "off");
	else if (n->best_effort)
		add2(a, "--unshare", "auto");

	if (n->verbose)
		add(a, "-v");
	if (n->really_quiet)
		add(a, "-q");
	add(a, "--");
	for (int i = optind; i < argc; i++)
		add(a, argv[i]);
	if (a->oom)
		FAIL("out of memory");
	return 0;
}

/* --max_cpus N: nsjail pins the jail to N of the CPUs it may use. */
static int pin_cpus(unsigned long want, char *err, size_t errlen)
{
	cpu_set_t have, set;
	if (!want)
		return 0;
	if (sched_getaffinity(0, sizeof(have), &have) != 0)
		FAIL("--max_cpus: cannot read our CPUs (%s)", strerror(errno));
	if ((unsigned long)CPU_COUNT(&have) <= want)
		return 0;
	CPU_ZERO(&set);
	/* start at a CPU that depends on our pid, so that concurrent jails
	 * spread as nsjail's random choice spreads them */
	int ncpu = CPU_SETSIZE, start = (int)(getpid() % CPU_COUNT(&have)), seen = 0;
	unsigned long got = 0;
	for (int pass = 0; pass < 2 && got < want; pass++)
		for (int i = 0; i < ncpu && got < want; i++) {
			if (!CPU_ISSET(i, &have))
				continue;
			if ((pass == 0 && seen++ < start) || CPU_ISSET(i, &set))
				continue;
			CPU_SET(i, &set);
			got++;
		}
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		FAIL("--max_cpus: cannot pin the run (%s)", strerror(errno));
	return 0;
}

int sl_nsjail_main(int argc, char **argv)
{
	struct nsj n = { .mode = 'o', .log_fd = -1 };
	struct args a = { 0 };
	char err[512];
	struct sl_main_hooks h = { .stderr_fd = -1 };
	add(&a, "sandlock");
	if (translate(argc, argv, &n, &a, h.missing, sizeof(h.missing), err, sizeof(err)) != 0 ||
	    pin_cpus(n.max_cpus, err, sizeof(err)) != 0) {
		fprintf(stderr, "sandlock (as nsjail): %s\n", err);
		args_free(&a);
		nsj_free(&n);
		return SANDLOCK_EXIT_FAILURE;
	}
	/* nsjail --log: its messages go there, the program's stderr stays */
	int log = n.log_fd;
	if (n.log) {
		log = open(n.log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
		if (log < 0) {
			fprintf(stderr, "sandlock (as nsjail): --log %s: %s\n", n.log, strerror(errno));
			args_free(&a);
			nsj_free(&n);
			return SANDLOCK_EXIT_FAILURE;
		}
	}
	if (log >= 0 && log != STDERR_FILENO) {
		h.stderr_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (h.stderr_fd < 0 || dup2(log, STDERR_FILENO) < 0) {
			fprintf(stderr, "sandlock (as nsjail): --log: %s\n", strerror(errno));
			args_free(&a);
			nsj_free(&n);
			return SANDLOCK_EXIT_FAILURE;
		}
	}
	char hostname_copy[65] = "";
	if (n.hostname)
		snprintf(hostname_copy, sizeof(hostname_copy), "%s", n.hostname);
	/* as sl_main does for its own: -E values, paths to expected answers
	 * are not for /proc/<pid>/cmdline (translate() made copies; --log is open) */
	for (int i = 1; i < argc; i++)
		memset(argv[i], 0, strlen(argv[i]));
	h.hostname = n.hostname ? hostname_copy : NULL;
	h.binds = n.binds.v;
	h.nbinds = n.binds.n;
	h.tmpfs = n.tmpfs.v;
	h.ntmpfs = n.tmpfs.n;
	int status = sl_main((int)a.n, a.v, &h);
	args_free(&a);
	nsj_free(&n);
	if (!h.ran)
		return status; /* our options were refused: 125, said */
	/* nsjail's statuses for the same outcomes */
	if (h.rc != 0 || h.result.status == SANDLOCK_EXIT_NOEXEC ||
	    h.result.status == SANDLOCK_EXIT_NOTFOUND)
		return status == SANDLOCK_EXIT_FAILURE && h.rc == 0 ? status : NSJ_EXIT_SETUP;
	if (status == SANDLOCK_EXIT_FAILURE)
		return status; /* the report could not be written: said */
	int sig = 0;
	if (h.result.verdict == SANDLOCK_WALL_LIMIT)
		sig = SIGKILL; /* nsjail's monitor kills with SIGKILL */
	else if (h.result.exit_code >= 0 && (h.result.verdict == SANDLOCK_OK_VERDICT ||
					     h.result.verdict == SANDLOCK_RUNTIME_ERROR))
		return h.result.exit_code;
	else if (status > 128 && status < 128 + 65)
		sig = status - 128; /* ours already says 128 + the signal */
	if (!sig)
		return status;
	if (n.mode == 'e') {
		/* nsjail -Me became the program: its caller sees the signal
		 * that ended it, and so it does here */
		struct rlimit none = { 0, 0 };
		setrlimit(RLIMIT_CORE, &none);
		signal(sig, SIG_DFL);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		fflush(NULL);
		raise(sig);
	}
	return 128 + sig;
}
