/*
 * sandlock --self-test [--json] [run options]: a readiness probe.  A real
 * sandboxed /bin/true (and the interpreter of a given --profile) under the
 * options given, then every layer that run had, or that the options asked
 * for, checked by its effect: a probe, our own binary run under the same
 * policy (`sandlock self-test-probe KIND ARG`), tries what the layer must
 * stop, and the same probe run bare first shows that it would have worked.
 * One line per layer; exit 0 only if everything asked for works here.
 */
#include "cli.h"
#include "lib/internal.h"
#include "lib/json_out.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the probe, inside the sandbox ---- */

/* Its exit statuses: a status no start-up failure gives (a runtime that
 * cannot start under the limits exits 1, say) says that the attempt
 * worked; anything but these two is no answer. */
enum { PROBE_STOPPED = 0, PROBE_WORKED = 42, PROBE_UNSURE = 43 };

int sl_selftest_probe(int argc, char **argv)
{
	if (argc < 2)
		return PROBE_UNSURE;
	const char *k = argv[1], *a = argc > 2 ? argv[2] : "";
	if (!strcmp(k, "ptrace")) {
		/* a call every profile refuses; killed here, or EPERM */
		return syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) == 0 ? PROBE_WORKED
									  : PROBE_STOPPED;
	}
	if (!strcmp(k, "nnp"))
		return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? PROBE_STOPPED : PROBE_WORKED;
	if (!strcmp(k, "nofile")) {
		struct rlimit rl;
		/* "stopped": the limit is ours */
		return getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		       (unsigned long long)rl.rlim_cur == strtoull(a, NULL, 10) ? PROBE_STOPPED
										: PROBE_WORKED;
	}
	/* the Landlock probe's path comes as @PATH: a word of the command
	 * line that is a path is allowed, and bound back into a run's own
	 * /tmp or /var/tmp, by the default allow-list */
	if ((!strcmp(k, "read") || !strcmp(k, "write")) && a[0] == '@')
		a++;
	if (!strcmp(k, "read")) {
		int fd = open(a, O_RDONLY | O_CLOEXEC);
		char c;
		return fd >= 0 && read(fd, &c, 1) == 1 ? PROBE_WORKED : PROBE_STOPPED;
	}
	if (!strcmp(k, "write")) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/w%d", a, (int)getpid());
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return PROBE_STOPPED;
		close(fd);
		unlink(path);
		return PROBE_WORKED;
	}
	if (!strcmp(k, "connect")) {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(a)) };
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return s >= 0 && connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? PROBE_WORKED
										      : PROBE_STOPPED;
	}
	if (!strcmp(k, "ns")) {
		/* "NAME:INODE": ours differs from the caller's */
		char name[32], path[64];
		unsigned long long ino = 0;
		if (sscanf(a, "%31[a-z_]:%llu", name, &ino) != 2)
			return PROBE_UNSURE;
		snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
		struct stat st;
		if (stat(path, &st) != 0)
			return PROBE_UNSURE;
		return (unsigned long long)st.st_ino != ino ? PROBE_STOPPED : PROBE_WORKED;
	}
	if (!strcmp(k, "uid"))
		return getuid() != 0 && geteuid() != 0 && setuid(0) != 0 ? PROBE_STOPPED : PROBE_WORKED;
	if (!strcmp(k, "pdeathsig")) {
		int sig = 0;
		return prctl(PR_GET_PDEATHSIG, &sig, 0, 0, 0) == 0 && sig ? PROBE_STOPPED : PROBE_WORKED;
	}
	if (!strcmp(k, "tmpdir")) {
		const char *t = getenv("TMPDIR");
		if (!t || !strcmp(t, a))
			return PROBE_WORKED;
		char path[4096];
		snprintf(path, sizeof(path), "%s/t%d", t, (int)getpid());
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return PROBE_WORKED;
		close(fd);
		unlink(path);
		return PROBE_STOPPED;
	}
	return PROBE_UNSURE;
}

/* ---- the self-test, outside ---- */

struct st {
	struct sandlock_policy *p;
	char self[4096];
	bool json, all_ok;
	json_t *checks;     /* with --json: written at the end, one object */
	FILE *out;
	int n;
	char scratch[4096]; /* a directory of ours the program must not touch */
	int port;
};

static void line(struct st *t, const char *what, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void line(struct st *t, const char *what, bool ok, const char *fmt, ...)
{
	char detail[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!ok)
		t->all_ok = false;
	if (t->json) {
		/* a detail is one line: control bytes left out */
		char *o = detail;
		for (const char *c = detail; *c; c++)
			if ((unsigned char)*c >= 0x20)
				*o++ = *c;
		*o = 0;
		json_array_append_new(t->checks, json_pack("{s:s,s:b,s:o}", "check", what, "ok",
							     (int)ok, "detail", sl_json_str(detail)));
	} else {
		fprintf(t->out, "%-14s %s  %s\n", what, ok ? "ok  " : "FAIL", detail);
	}
	t->n++;
}

/* The probe bare: PROBE_WORKED means the attempt works without us (so
 * PROBE_STOPPED under the sandbox is the layer's doing). */
static int bare(struct st *t, const char *kind, const char *arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl(t->self, t->self, "self-test-probe", kind, arg, (char *)NULL);
		_exit(PROBE_UNSURE);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return PROBE_UNSURE;
	return WIFEXITED(st) ? WEXITSTATUS(st) : PROBE_UNSURE;
}

/* The probe sandboxed: PROBE_STOPPED (or killed by the filter),
 * PROBE_WORKED, or no answer (the exit status in *status). */
static int boxed(struct st *t, const char *kind, const char *arg, struct sandlock_result *r)
{
	char *argv[] = { t->self, "self-test-probe", (char *)kind, (char *)arg, NULL };
	if (sandlock_run(t->p, argv, r) != 0)
		return PROBE_UNSURE;
	if (r->verdict == SANDLOCK_SYSCALL_BLOCKED)
		return PROBE_STOPPED;
	return r->exit_code == PROBE_STOPPED || r->exit_code == PROBE_WORKED ? r->exit_code
									     : PROBE_UNSURE;
}

/* A layer checked by its effect: the probe works bare and not boxed. */
static void effect(struct st *t, const char *layer, const char *kind, const char *arg,
		   const char *what)
{
	struct sandlock_result r;
	int b = bare(t, kind, arg);
	int s = boxed(t, kind, arg, &r);
	if (b != PROBE_WORKED)
		line(t, layer, true, "active (not checked by effect: %s fails here without us too)", what);
	else if (s == PROBE_UNSURE)
		/* cannot tell: not counted as working */
		line(t, layer, false, "the probe could not run under these options (%s)",
		     r.error[0] ? r.error : r.signal ? "killed by a signal" : "it could not start");
	else
		line(t, layer, s == PROBE_STOPPED, "%s: %s", what,
		     s == PROBE_STOPPED ? "prevented" : "NOT prevented");
}

static unsigned long long ns_ino(const char *name)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
	return stat(path, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static bool path_under(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	return !strncmp(path, dir, l) && (path[l] == '/' || path[l] == 0 || l == 1);
}

/* A directory of ours to make the Landlock probe's files in, that no rule
 * of the options (nor the program's working directory) covers. */
static const char *outside_rules(struct st *t, const char *tmp)
{
	const struct sandlock_policy *p = t->p;
	const char *home = getenv("HOME");
	const char *cand[] = { tmp, "/tmp", "/var/tmp", "/dev/shm", home };
	char wd[4096];
	if (!p->workdir || !realpath(p->workdir, wd))
		if (!getcwd(wd, sizeof(wd)))
			wd[0] = 0;
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		const char *c = cand[i];
		if (!c || c[0] != '/' || access(c, W_OK | X_OK) != 0)
			continue;
		bool covered = wd[0] && (path_under(c, wd) || path_under(wd, c));
		for (size_t j = 0; j < p->ro.n + p->rw.n && !covered; j++) {
			const char *r = j < p->ro.n ? p->ro.v[j] : p->rw.v[j - p->ro.n];
			covered = path_under(c, r);
		}
		if (!covered)
			return c;
	}
	return NULL;
}

/* What a profile's step starts, to see that it starts here. */
static const char *const *interpreter(const char *profile, bool compile)
{
	static const char *const py[] = { "python3", "-c", "pass", NULL };
	static const char *const node[] = { "node", "-e", "0", NULL };
	static const char *const java[] = { "java", "-version", NULL };
	static const char *const javac[] = { "javac", "-version", NULL };
	static const char *const cc[] = { "cc", "--version", NULL };
	static const char *const cxx[] = { "c++", "--version", NULL };
	static const char *const go[] = { "go", "version", NULL };
	char name[16];
	if (!profile || strlen(profile) >= sizeof(name))
		return NULL;
	strcpy(name, profile);
	if (strchr(name, ':'))
		*strchr(name, ':') = 0;
	profile = name;
	if (!strcmp(profile, "python"))
		return py;
	if (!strcmp(profile, "node"))
		return node;
	if (!strcmp(profile, "java"))
		return compile ? javac : java;
	if (compile && !strcmp(profile, "c"))
		return cc;
	if (compile && !strcmp(profile, "cpp"))
		return cxx;
	if (compile && !strcmp(profile, "go"))
		return go;
	return NULL; /* the run step of a compiled language: the program itself */
}

/* The layers the options ask for, whether required or not. */
static unsigned asked(const struct sandlock_policy *p)
{
	unsigned a = p->require | SANDLOCK_LAYER_RLIMITS;
	if (!p->best_effort)
		a |= SANDLOCK_LAYER_SECCOMP | SANDLOCK_LAYER_NO_NEW_PRIVS;
	if (p->landlock || p->strict || p->ro.n || p->rw.n)
		a |= SANDLOCK_LAYER_LANDLOCK;
	if (p->strict)
		a |= SANDLOCK_LAYER_STRICT;
	if (p->isolate_tmp)
		a |= SANDLOCK_LAYER_ISOLATE_TMP;
	if (p->unshare == SANDLOCK_UNSHARE_ON)
		a |= SANDLOCK_LAYER_PIDNS | SANDLOCK_LAYER_MOUNTNS | SANDLOCK_LAYER_IPCNS;
	if (geteuid() == 0)
		a |= SANDLOCK_LAYER_PRIVDROP;
	return a;
}

/* The probes need to exec our binary: under Landlock it is one more path
 * to read (the defaults, which any --ro would replace, written out). */
static int allow_self(struct st *t)
{
	struct sandlock_policy *p = t->p;
	if (!(p->landlock || p->strict || p->ro.n || p->rw.n))
		return 0;
	if (!p->ro.n && !p->rw.n) {
		for (const char *const *d = sl_landlock_default_ro; *d; d++)
			if (access(*d, F_OK) == 0 && sandlock_policy_add_ro(p, *d) != 0)
				return -1;
		for (const char *const *d = sl_landlock_default_rw; *d; d++)
			if (access(*d, F_OK) == 0 && sandlock_policy_add_rw(p, *d) != 0)
				return -1;
		if (sandlock_policy_add_rw(p, "@workdir") != 0)
			return -1;
	}
	return sandlock_policy_add_ro(p, t->self);
}

int sl_selftest_main(struct sl_cli *cli)
{
	struct st t = { .p = &cli->policy, .json = cli->json, .all_ok = true, .out = stdout };
	uint64_t t0 = now_us();
	ssize_t sl = readlink("/proc/self/exe", t.self, sizeof(t.self) - 1);
	if (sl <= 0) {
		fprintf(stderr, "sandlock: --self-test: cannot find our own binary: %s\n",
			strerror(errno));
		return SANDLOCK_EXIT_FAILURE;
	}
	t.self[sl] = 0;
	signal(SIGPIPE, SIG_IGN);
	if (t.json)
		t.checks = json_array();

	/* 1. a real run, as the options have it */
	struct sandlock_result r;
	char *tru[] = { "/bin/true", NULL };
	int rc = sandlock_run(t.p, tru, &r);
	unsigned want = asked(t.p), have = rc == 0 ? r.layers : 0;
	if (rc != 0 || r.verdict != SANDLOCK_OK_VERDICT) {
		line(&t, "run", false, "/bin/true: %s", r.error[0] ? r.error : sandlock_verdict_name(r.verdict));
		struct sandlock_features f;
		sandlock_probe_features(&f);
		for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
			if ((t.p->require & (1u << i)) && f.state[i] != SANDLOCK_AVAILABLE)
				line(&t, sandlock_layer_name(1u << i), false, "required, %s here%s%s",
				     sandlock_state_name((enum sandlock_state)f.state[i]),
				     f.why[i][0] ? ": " : "", f.why[i]);
	} else {
		line(&t, "run", true, "/bin/true: ok in %llu us (setup %llu us)",
		     (unsigned long long)(r.setup_us + r.run_us + r.teardown_us),
		     (unsigned long long)r.setup_us);
	}
	const char *const *interp = interpreter(cli->profile, cli->profile_step_compile);
	if (interp && rc == 0) {
		struct sandlock_result ri;
		int ri_rc = sandlock_run(t.p, (char *const *)interp, &ri);
		line(&t, interp[0], ri_rc == 0 && ri.verdict == SANDLOCK_OK_VERDICT,
		     "%s %s under --profile %s: %s", interp[0], interp[1], cli->profile,
		     ri.error[0] ? ri.error : sandlock_verdict_name(ri.verdict));
	}

	/* 2. each layer, by its effect */
	/* where the kernel has no Landlock, the allow-list asked for is a
	 * root of bind mounts: checked by the same effects */
	if ((want & SANDLOCK_LAYER_LANDLOCK) && (have & SANDLOCK_LAYER_BIND_ROOT))
		want = (want & ~SANDLOCK_LAYER_LANDLOCK) | SANDLOCK_LAYER_BIND_ROOT;
	if (rc == 0) {
		for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
			if ((want & (1u << i)) && !(have & (1u << i)))
				line(&t, sandlock_layer_name(1u << i), false, "asked for, not active here%s%s",
				     r.missing[0] ? " (missing: " : "", r.missing[0] ? r.missing : "");
		if (allow_self(&t) != 0) {
			line(&t, "probe", false, "out of memory");
			goto end;
		}
		const char *tmp = getenv("TMPDIR");
		const char *base = outside_rules(&t, tmp);
		bool scratch = false;
		if (base) {
			snprintf(t.scratch, sizeof(t.scratch), "%s/sandlock-selftest.XXXXXX", base);
			scratch = mkdtemp(t.scratch) != NULL;
		}
		char secret[4200] = "";
		if (scratch) {
			chmod(t.scratch, 0777);
			snprintf(secret, sizeof(secret), "%s/secret", t.scratch);
			int fd = open(secret, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd >= 0) {
				(void)!write(fd, "x", 1);
				close(fd);
			}
		}
		char arg[64];
		for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
			unsigned bit = 1u << i;
			if (!(have & bit))
				continue;
			const char *name = sandlock_layer_name(bit);
			switch (bit) {
			case SANDLOCK_LAYER_SECCOMP:
				effect(&t, name, "ptrace", "", "calling ptrace(PTRACE_TRACEME)");
				break;
			case SANDLOCK_LAYER_NO_NEW_PRIVS:
				/* bare, we hold no no-new-privs: the probe says 1 */
				effect(&t, name, "nnp", "", "running without no_new_privs");
				break;
			case SANDLOCK_LAYER_RLIMITS: {
				struct rlimit rl;
				getrlimit(RLIMIT_NOFILE, &rl);
				if (t.p->nofile && t.p->nofile != rl.rlim_cur) {
					snprintf(arg, sizeof(arg), "%llu", (unsigned long long)t.p->nofile);
					struct sandlock_result rr;
					int s = boxed(&t, "nofile", arg, &rr);
					line(&t, name, s == PROBE_STOPPED, "RLIMIT_NOFILE is %s: %s", arg,
					     s == PROBE_STOPPED ? "set" : s == PROBE_WORKED ? "NOT set"
					     : "the probe could not run under these options");
				} else {
					line(&t, name, true, "active (no limit here to tell from ours)");
				}
				break;
			}
			case SANDLOCK_LAYER_LANDLOCK: case SANDLOCK_LAYER_BIND_ROOT:
				if (scratch) {
					char at[4300];
					snprintf(at, sizeof(at), "@%s", secret);
					effect(&t, name, "read", at, "reading a file outside the rules");
					snprintf(at, sizeof(at), "@%s", t.scratch);
					effect(&t, name, "write", at, "writing a directory outside the rules");
				} else {
					line(&t, name, true, "active (not checked by effect: every "
					     "directory we could write is allowed by the options)");
				}
				break;
			case SANDLOCK_LAYER_LANDLOCK_NET: case SANDLOCK_LAYER_NETNS:
				if (!t.p->no_network) {
					line(&t, name, true, "active (the network is allowed by the options)");
					break;
				}
				if (!t.port) {
					int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
					struct sockaddr_in sa = { .sin_family = AF_INET };
					socklen_t len = sizeof(sa);
					sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
					if (s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
					    listen(s, 8) == 0 &&
					    getsockname(s, (struct sockaddr *)&sa, &len) == 0)
						t.port = ntohs(sa.sin_port);
				}
				snprintf(arg, sizeof(arg), "%d", t.port);
				effect(&t, name, "connect", arg, "connecting to 127.0.0.1");
				break;
			case SANDLOCK_LAYER_USERNS: case SANDLOCK_LAYER_PIDNS:
			case SANDLOCK_LAYER_MOUNTNS: case SANDLOCK_LAYER_IPCNS:
			case SANDLOCK_LAYER_UTSNS: {
				const char *ns = bit == SANDLOCK_LAYER_USERNS ? "user"
						 : bit == SANDLOCK_LAYER_PIDNS ? "pid"
						 : bit == SANDLOCK_LAYER_MOUNTNS ? "mnt"
						 : bit == SANDLOCK_LAYER_IPCNS ? "ipc" : "uts";
				snprintf(arg, sizeof(arg), "%s:%llu", ns, ns_ino(ns));
				effect(&t, name, "ns", arg, "sharing our namespace");
				break;
			}
			case SANDLOCK_LAYER_PRIVDROP:
				effect(&t, name, "uid", "", "keeping uid 0");
				break;
			case SANDLOCK_LAYER_PDEATHSIG:
				effect(&t, name, "pdeathsig", "", "outliving us (no parent-death signal)");
				break;
			case SANDLOCK_LAYER_ISOLATE_TMP:
				effect(&t, name, "tmpdir", tmp ? tmp : "", "using our TMPDIR");
				break;
			default:
				line(&t, name, true, "active (reported by the run; no probe)");
			}
		}
		if (scratch) {
			unlink(secret);
			rmdir(t.scratch);
		}
	}
end:;
	uint64_t us = now_us() - t0;
	if (t.json) {
		json_t *o = json_pack("{s:o,s:b,s:o}", "checks", t.checks, "ok", (int)t.all_ok, "us",
				      sl_json_u64(us));
		char *doc;
		size_t len;
		if (o && sl_json_dump(o, SL_JSON_NEWLINE, &doc, &len) == 0) {
			fwrite(doc, 1, len, t.out);
			free(doc);
		} else {
			fprintf(stderr, "sandlock: --self-test: out of memory\n");
			t.all_ok = false;
		}
		json_decref(o);
	}
	else
		fprintf(t.out, "self-test: %s in %llu ms\n", t.all_ok ? "ok" : "FAILED",
			(unsigned long long)(us / 1000));
	fflush(t.out);
	return t.all_ok ? 0 : 1;
}
