/*
 * What this host offers, probed without side effects.
 *
 * Each probe makes the call the sandbox will make, in a form that changes
 * nothing, and reads the answer: success, ENOSYS (this kernel lacks it),
 * EPERM/EACCES/ENOSPC (a parent seccomp policy, a sysctl), or a call that
 * works but grants nothing (an LSM's restriction).  A run probes only what
 * it needs (a few system calls); --features probes everything, including
 * a user namespace, which costs a clone.
 */
#include "internal.h"
#include "wasm/backend.h"
#include "json_out.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif
#ifndef SECCOMP_GET_NOTIF_SIZES
#define SECCOMP_GET_NOTIF_SIZES 3
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

#define NS_LAYERS (SANDLOCK_LAYER_USERNS | SANDLOCK_LAYER_PIDNS | SANDLOCK_LAYER_MOUNTNS | \
		   SANDLOCK_LAYER_IPCNS | SANDLOCK_LAYER_NETNS | SANDLOCK_LAYER_UTSNS)

const char *sandlock_state_name(enum sandlock_state s)
{
	switch (s) {
	case SANDLOCK_AVAILABLE: return "available";
	case SANDLOCK_MISSING: return "missing";
	case SANDLOCK_REFUSED: return "refused";
	case SANDLOCK_RESTRICTED: return "restricted";
	}
	return "unknown";
}

static int bit_index(unsigned bit)
{
	for (int i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if (bit == 1u << i)
			return i;
	return -1;
}

static void set_state(struct sandlock_features *f, unsigned layers, enum sandlock_state s,
		      const char *why)
{
	for (int i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if (layers & (1u << i)) {
			f->state[i] = (unsigned char)s;
			snprintf(f->why[i], sizeof(f->why[i]), "%s", why ? why : "");
		}
}

/* Under a seccomp filter of someone else's (Seccomp: 2 in our status)? */
static bool under_filter(void)
{
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2;
}

/* The state a failed call's errno means. */
static enum sandlock_state state_of(int e, char *why, size_t len, const char *call)
{
	if (e == ENOSYS) {
		snprintf(why, len, "%s: ENOSYS (not in this kernel%s)", call,
			 under_filter() ? ", or hidden by a parent seccomp policy" : "");
		return SANDLOCK_MISSING;
	}
	snprintf(why, len, "%s: %s%s", call, strerrorname_np(e) ? strerrorname_np(e) : "error",
		 under_filter() ? " from a parent seccomp policy" : "");
	return SANDLOCK_REFUSED;
}

static void probe_call(struct sandlock_features *f, unsigned layers, bool ok, int e,
		       const char *call)
{
	char why[80];
	if (ok) {
		set_state(f, layers, SANDLOCK_AVAILABLE, "");
		return;
	}
	enum sandlock_state s = state_of(e, why, sizeof(why), call);
	set_state(f, layers, s, why);
}

static bool action_avail(uint32_t action)
{
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

static long read_long(const char *path, long dflt)
{
	char buf[32];
	return sl_read_small(AT_FDCWD, path, buf, sizeof(buf)) < 0 ? dflt : strtol(buf, NULL, 10);
}

bool sl_cap_effective(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

/* The probe child, made as a run's first process is (a new user, mount and
 * pid namespace): can it make its mounts private and mount a new /proc?  A
 * container that masks paths under /proc refuses the latter (EPERM). */
static int ns_child(void *arg)
{
	(void)arg;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		_exit(5);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
		_exit(6);
	_exit(0);
}

static int userns_child(void *arg)
{
	(void)arg;
	_exit(0);
}

static int nnp_child(void *arg)
{
	(void)arg;
	_exit(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : 3);
}

/* Run fn in a child made by clone(flags); its exit status, or -errno. */
static int probe_clone(int (*fn)(void *), int flags)
{
	static __thread char stack[16384] __attribute__((aligned(16)));
	pid_t pid = clone(fn, stack + sizeof(stack), flags | SIGCHLD, NULL);
	if (pid < 0)
		return -errno;
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

static void probe_userns(struct sandlock_features *f)
{
	/* root with CAP_SYS_ADMIN creates the other namespaces directly */
	f->namespaces_direct = geteuid() == 0 && sl_cap_effective(CAP_SYS_ADMIN);
	const unsigned others = NS_LAYERS & ~SANDLOCK_LAYER_USERNS;
	char why[80];
	int u = probe_clone(userns_child, CLONE_NEWUSER);
	f->userns = u == 0;
	if (u == 0)
		set_state(f, SANDLOCK_LAYER_USERNS, SANDLOCK_AVAILABLE, "");
	else if (u == -ENOSPC)
		set_state(f, NS_LAYERS, SANDLOCK_REFUSED,
			  "clone(CLONE_NEWUSER): ENOSPC (user.max_user_namespaces is 0)");
	else if (u == -EPERM && read_long("/proc/sys/kernel/unprivileged_userns_clone", 1) == 0)
		set_state(f, NS_LAYERS, SANDLOCK_REFUSED,
			  "clone(CLONE_NEWUSER): EPERM (kernel.unprivileged_userns_clone is 0)");
	else if (u == -EPERM && !under_filter() &&
		 read_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", 0) == 1)
		set_state(f, NS_LAYERS, SANDLOCK_RESTRICTED, "clone(CLONE_NEWUSER): EPERM (AppArmor)");
	else {
		enum sandlock_state st = state_of(u < 0 ? -u : EPERM, why, sizeof(why), "clone(CLONE_NEWUSER)");
		set_state(f, NS_LAYERS, st, why);
	}
	if (!f->userns && !f->namespaces_direct)
		return;
	/* the others, as a run makes them */
	int flags = CLONE_NEWNS | CLONE_NEWPID | (f->namespaces_direct ? 0 : CLONE_NEWUSER);
	int r = probe_clone(ns_child, flags);
	if (r == 0) {
		set_state(f, others, SANDLOCK_AVAILABLE, "");
	} else if (r == 6) {
		set_state(f, others, SANDLOCK_REFUSED,
			  "a new /proc cannot be mounted: EPERM, the container masks paths under /proc");
	} else if (r == 5 || (r == -EPERM && !under_filter())) {
		set_state(f, others, SANDLOCK_RESTRICTED,
			  read_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", 0) == 1
			  ? "a user namespace grants no capability (AppArmor restriction)"
			  : "a user namespace grants no capability (an LSM)");
	} else {
		enum sandlock_state st = state_of(r < 0 ? -r : EPERM, why, sizeof(why),
						  "clone with namespace flags");
		set_state(f, others, st, why);
	}
}

/* Root drops to the program's uid with setgroups, setresgid and setresuid
 * (privileges.c): each needs CAP_SETGID or CAP_SETUID, which a hardened
 * container (docker run --cap-drop ALL, Kubernetes' restricted profile)
 * takes away.  And once the program is another uid, root stops it with
 * CAP_KILL (without it a signal to another uid is refused: a run past
 * its limits ran on, its supervisor waiting for it) and gives it its
 * scratch directory with CAP_CHOWN; a container that added back only
 * SETUID and SETGID has neither.  The capability sets say most; a call that
 * changes nothing (the groups we have, ids left as they are) says whether
 * a parent seccomp policy refuses the calls themselves.  Raw calls: they
 * change this thread only, and to what it already has. */
static void probe_privdrop(struct sandlock_features *f)
{
	if (geteuid() != 0) {
		set_state(f, SANDLOCK_LAYER_PRIVDROP, SANDLOCK_AVAILABLE, "");
		return;
	}
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	syscall(SYS_capget, &h, d);
	static const struct { int cap; const char *name; } needed[] = {
		{ CAP_SETUID, "CAP_SETUID" }, { CAP_SETGID, "CAP_SETGID" },
		{ CAP_KILL, "CAP_KILL" }, { CAP_CHOWN, "CAP_CHOWN" },
	};
	char why[80] = "no ";
	size_t len = 3;
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!((d[0].effective >> needed[i].cap) & 1))
			len += (size_t)snprintf(why + len, sizeof(why) - len, "%s%s",
						len > 3 ? ", " : "", needed[i].name);
	if (len > 3) {
		set_state(f, SANDLOCK_LAYER_PRIVDROP, SANDLOCK_REFUSED, why);
		return;
	}
	gid_t groups[64];
	long n = syscall(SYS_getgroups, 64, groups);
	const char *call = "setgroups";
	errno = 0;
	bool ok = n >= 0 && syscall(SYS_setgroups, n, groups) == 0 &&
		  (call = "setresgid", syscall(SYS_setresgid, -1, -1, -1) == 0) &&
		  (call = "setresuid", syscall(SYS_setresuid, -1, -1, -1) == 0);
	if (n < 0) /* more than 64 groups: the capabilities have said it */
		ok = true;
	probe_call(f, SANDLOCK_LAYER_PRIVDROP, ok, errno, call);
}

/* What a run needs from the kernel: cheap calls only. */
static void probe_kernel(struct sandlock_features *f)
{
	/* seccomp: a filter mode query that changes nothing (EFAULT: the
	 * call reached the kernel's copy of our NULL program) */
	errno = 0;
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);
	int e = errno;
	f->seccomp = r < 0 && e == EFAULT;
	probe_call(f, SANDLOCK_LAYER_SECCOMP | SANDLOCK_LAYER_STRICT, f->seccomp,
		   e == EINVAL ? ENOSYS : e, "seccomp");
	if (f->seccomp) {
		f->seccomp_kill_process = action_avail(SECCOMP_RET_KILL_PROCESS);
		f->seccomp_log = action_avail(SECCOMP_RET_LOG);
		/* notification needs the action and the listener's ioctls
		 * (GET_NOTIF_SIZES came with them, in Linux 5.0) */
		struct seccomp_notif_sizes sz;
		errno = 0;
		f->seccomp_notify = action_avail(SECCOMP_RET_USER_NOTIF) &&
				    syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) == 0;
		probe_call(f, SANDLOCK_LAYER_SECCOMP_NOTIFY, f->seccomp_notify,
			   errno && errno != EINVAL ? errno : ENOSYS, "seccomp user notification");
	} else {
		set_state(f, SANDLOCK_LAYER_SECCOMP_NOTIFY, f->state[0], f->why[0]);
	}
	errno = 0;
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1UL /* VERSION */);
	e = errno;
	f->landlock_abi = abi > 0 ? (int)abi : 0;
	if (abi <= 0 && e == EOPNOTSUPP) {
		set_state(f, SANDLOCK_LAYER_LANDLOCK | SANDLOCK_LAYER_LANDLOCK_NET |
			  SANDLOCK_LAYER_LANDLOCK_SCOPE, SANDLOCK_MISSING,
			  "landlock: built in but not enabled at boot (lsm=)");
	} else {
		probe_call(f, SANDLOCK_LAYER_LANDLOCK | SANDLOCK_LAYER_LANDLOCK_NET |
			   SANDLOCK_LAYER_LANDLOCK_SCOPE, abi > 0, e, "landlock_create_ruleset");
		if (abi > 0 && abi < 4)
			set_state(f, SANDLOCK_LAYER_LANDLOCK_NET, SANDLOCK_MISSING,
				  "Landlock ABI below 4 (Linux 6.7)");
		if (abi > 0 && abi < 6)
			set_state(f, SANDLOCK_LAYER_LANDLOCK_SCOPE, SANDLOCK_MISSING,
				  "Landlock ABI below 6 (Linux 6.12)");
	}
	/* the parent-death signal: set again what is set (changes nothing) */
	int cur = 0;
	errno = 0;
	f->pdeathsig = prctl(PR_GET_PDEATHSIG, &cur, 0, 0, 0) == 0 &&
		       prctl(PR_SET_PDEATHSIG, cur, 0, 0, 0) == 0;
	probe_call(f, SANDLOCK_LAYER_PDEATHSIG, f->pdeathsig, errno, "prctl(PR_SET_PDEATHSIG)");
	/* the descriptor-table hand-over: close_range on an empty range,
	 * unshare of nothing */
	errno = 0;
	f->close_range = syscall(SYS_close_range, ~0U, ~0U, 0) == 0;
	errno = 0;
	f->unshare_files = syscall(SYS_unshare, 0) == 0;
	/* without either, the listener cannot be handed to the supervisor */
	if (f->seccomp_notify && !f->close_range && !f->unshare_files) {
		f->seccomp_notify = false;
		set_state(f, SANDLOCK_LAYER_SECCOMP_NOTIFY, SANDLOCK_REFUSED,
			  "close_range and unshare are both refused: no way to hand the listener over");
	}
	/* a run needs it to know whether the init can watch for our death
	 * (spawn.c), or a watchdog must */
	long pfd = syscall(SYS_pidfd_open, getpid(), 0);
	f->pidfd = pfd >= 0;
	if (pfd >= 0)
		close((int)pfd);
}

/*
 * The kernel's answers above, once per process for runs (a dozen calls of
 * every run's start-up otherwise).  They are the kernel's and the
 * process's seccomp policy's, which are the same for every run of this
 * process; what can change between runs (our uid, our capabilities, the
 * wasm artifacts) is probed per run, below.  (A process that restricts
 * itself after its first run, with a seccomp filter or Landlock, has runs
 * that fail closed in the child instead of taking a fallback.)
 *
 * Not state a caller can see or must manage: an answer computed the same
 * way by any thread, published once.  A thread that finds none published
 * probes into its own copy, then claims the slot with a compare-and-swap
 * (0 -> 1), copies its answer in and publishes it (2, release); readers
 * copy it out only once published (acquire).  A thread that loses the
 * race keeps its own, identical, answer.  fork() inherits it, as it does
 * the kernel and the policy it describes.
 */
static struct sandlock_features kernel_answers;
static int kernel_answers_state;

static void probe_kernel_once(struct sandlock_features *f)
{
	if (__atomic_load_n(&kernel_answers_state, __ATOMIC_ACQUIRE) == 2) {
		memcpy(f, &kernel_answers, sizeof(*f));
		return;
	}
	probe_kernel(f);
	int none = 0;
	if (__atomic_compare_exchange_n(&kernel_answers_state, &none, 1, false, __ATOMIC_ACQ_REL,
					__ATOMIC_RELAXED)) {
		memcpy(&kernel_answers, f, sizeof(*f));
		__atomic_store_n(&kernel_answers_state, 2, __ATOMIC_RELEASE);
	}
}

/* What a run needs; full: everything a report of the host shows. */
static void probe_run(struct sandlock_features *f, bool full)
{
	if (full)
		probe_kernel(f);
	else
		probe_kernel_once(f);
	set_state(f, SANDLOCK_LAYER_RLIMITS | SANDLOCK_LAYER_ISOLATE_TMP | SANDLOCK_LAYER_WATCHDOG,
		  SANDLOCK_AVAILABLE, "");
	probe_privdrop(f);
	/* the guards depend on the command, not the host: a run says whether
	 * one fitted; here, what each is worth */
	set_state(f, SANDLOCK_LAYER_GUARD_PYTHON, SANDLOCK_AVAILABLE,
		  "Python 3.8+: an audit hook, not a security boundary");
	set_state(f, SANDLOCK_LAYER_GUARD_NODE, SANDLOCK_AVAILABLE,
		  "Node.js 20.16+/22.3+: its permission model; no network rules");
	set_state(f, SANDLOCK_LAYER_PRELOAD, SANDLOCK_AVAILABLE,
		  "dynamically linked programs; raw syscalls and static binaries bypass it");
}

/* --runtime wasm: where its artifacts are found (SANDLOCK_WASM_DIR or
 * next to us), or why not.  Only for the full probe: a run does not read
 * it (a wasm run looks for them itself, with its --wasm-dir), and the
 * search is ten calls of every run's start-up. */
static void probe_wasm(struct sandlock_features *f)
{
	char wdir[4096], line[sizeof(f->why[0])];
	bool found = sl_wasm_find(NULL, wdir, sizeof(wdir)) == 0;
	/* a long path is cut: the line says where, not all of it */
	char node[sizeof(wdir) + 8];
	bool js = found && snprintf(node, sizeof(node), "%s/node", wdir) > 0 && access(node, X_OK) == 0;
	if (snprintf(line, sizeof(line), "%s%s", !found ? "" : js ? "python3 and node as WebAssembly: "
		     : "python3 as WebAssembly: ", wdir) < 0)
		line[0] = '\0';
	set_state(f, SANDLOCK_LAYER_WASM, found ? SANDLOCK_AVAILABLE : SANDLOCK_MISSING, line);
}

void sl_probe_features(struct sandlock_features *f, bool full)
{
	memset(f, 0, sizeof(*f));
	probe_run(f, full);
	/* no-new-privs and namespaces cannot be probed without a process */
	set_state(f, SANDLOCK_LAYER_NO_NEW_PRIVS, SANDLOCK_AVAILABLE, "");
	set_state(f, NS_LAYERS, SANDLOCK_AVAILABLE, "");
	if (!full)
		return; /* a run learns these by trying */
	probe_wasm(f);
	int r = probe_clone(nnp_child, 0);
	if (r != 0)
		set_state(f, SANDLOCK_LAYER_NO_NEW_PRIVS, SANDLOCK_REFUSED,
			  under_filter() ? "prctl(PR_SET_NO_NEW_PRIVS): refused by a parent seccomp policy"
				       : "prctl(PR_SET_NO_NEW_PRIVS): refused");
	probe_userns(f);
}

void sandlock_probe_features(struct sandlock_features *f)
{
	sl_probe_features(f, true);
}

const char *sandlock_feature_remedy(const struct sandlock_features *f, unsigned bit)
{
	int i = bit_index(bit);
	if (i < 0 || f->state[i] == SANDLOCK_AVAILABLE)
		return "";
	enum sandlock_state s = f->state[i];
	switch (bit) {
	case SANDLOCK_LAYER_SECCOMP:
	case SANDLOCK_LAYER_STRICT:
		return s == SANDLOCK_MISSING
		       ? "a kernel with CONFIG_SECCOMP_FILTER; or --best-effort to run without it"
		       : "the host forbids seccomp filters (a serverless sandbox): --best-effort runs without them, reported";
	case SANDLOCK_LAYER_SECCOMP_NOTIFY:
		if (strstr(f->why[i], "hand the listener"))
			return "allow close_range or unshare(CLONE_FILES) in the host's seccomp profile";
		return s == SANDLOCK_MISSING
		       ? "Linux 5.0 or later; until then a blocked call kills the program unnamed"
		       : "allow seccomp(SECCOMP_GET_NOTIF_SIZES) and the SECCOMP_IOCTL_NOTIF_* ioctls in the host's profile";
	case SANDLOCK_LAYER_NO_NEW_PRIVS:
		return "the host forbids no_new_privs: --best-effort runs without it (setuid files then keep their power)";
	case SANDLOCK_LAYER_LANDLOCK:
	case SANDLOCK_LAYER_LANDLOCK_NET:
	case SANDLOCK_LAYER_LANDLOCK_SCOPE:
		return s == SANDLOCK_MISSING
		       ? "a newer kernel with CONFIG_SECURITY_LANDLOCK and landlock in lsm= (net: 6.7, scope: 6.12)"
		       : "allow landlock_create_ruleset, landlock_add_rule and landlock_restrict_self in the container's seccomp profile (Docker 23 and later do)";
	case SANDLOCK_LAYER_PRIVDROP:
		return strstr(f->why[i], "CAP_")
		       ? "add CAP_SETUID, CAP_SETGID, CAP_KILL, CAP_CHOWN (Docker's "
			 "defaults), "
			 "or run the grader as a non-root user (docker run --user 1000); "
			 "--best-effort runs it as root, reported"
		       : "allow setgroups, setresgid and setresuid in the host's seccomp profile, or run "
			 "the grader as a non-root user; --best-effort runs it as root, reported";
	case SANDLOCK_LAYER_WASM:
		return "make wasm (after tools/setup-debian.sh --wasm), then keep build/wasm next to sandlock or set SANDLOCK_WASM_DIR";
	case SANDLOCK_LAYER_PDEATHSIG:
		return "nothing needed: sandlock's watchdog process kills the run if the supervisor dies";
	case SANDLOCK_LAYER_USERNS: case SANDLOCK_LAYER_PIDNS: case SANDLOCK_LAYER_MOUNTNS:
	case SANDLOCK_LAYER_IPCNS: case SANDLOCK_LAYER_NETNS: case SANDLOCK_LAYER_UTSNS:
		if (s == SANDLOCK_RESTRICTED)
			return "sysctl kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile with 'userns,' for sandlock";
		if (strstr(f->why[i], "max_user_namespaces"))
			return "sysctl -w user.max_user_namespaces=15000";
		if (strstr(f->why[i], "unprivileged_userns_clone"))
			return "sysctl -w kernel.unprivileged_userns_clone=1";
		if (strstr(f->why[i], "masks paths under /proc"))
			return "docker/podman run --security-opt systempaths=unconfined (with the profile of contrib/seccomp)";
		if (strstr(f->why[i], "seccomp"))
			return "docker/podman run --security-opt seccomp=contrib/seccomp/sandlock-docker.json --security-opt systempaths=unconfined (see contrib/seccomp/README.md)";
		return "a kernel with CONFIG_USER_NS";
	}
	return "";
}

void sandlock_print_features(const struct sandlock_features *f, int fd)
{
	for (int i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		const char *name = sandlock_layer_name(bit);
		if (f->state[i] == SANDLOCK_AVAILABLE) {
			if (bit == SANDLOCK_LAYER_LANDLOCK)
				dprintf(fd, "%s: available (ABI %d)\n", name, f->landlock_abi);
			else if (f->why[i][0])
				dprintf(fd, "%s: available (%s)\n", name, f->why[i]);
			else
				dprintf(fd, "%s: available\n", name);
			continue;
		}
		dprintf(fd, "%s: %s (%s); %s\n", name, sandlock_state_name(f->state[i]),
			f->why[i], sandlock_feature_remedy(f, bit));
	}
	/* mechanisms the layers rest on, not layers: --require takes the
	 * names above, and these lines do not look like theirs */
	dprintf(fd, "(mechanisms, not layers) close_range %s, pidfd %s\n",
		f->close_range ? "available" : "missing", f->pidfd ? "available" : "missing");
	char dir[4096], why[512];
	bool memory;
	if (sl_cgroup_describe(dir, sizeof(dir), &memory, why, sizeof(why)))
		dprintf(fd, "(accounting, not a layer) --cgroup auto: under %s (CPU%s)\n",
			dir, memory ? " and memory" : "; memory sampled: its controller is not delegated there");
	else
		dprintf(fd, "(accounting, not a layer) --cgroup auto: the supervisor samples: no cgroup of ours (%s)\n", why);
}

void sandlock_print_features_json(const struct sandlock_features *f, int fd)
{
	json_t *o = json_object(), *layers = json_object();
	bool ok = o && layers;
	for (int i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		json_t *l = json_object();
		ok = sl_json_set(l, "state", json_string(sandlock_state_name(f->state[i]))) && ok;
		ok = sl_json_set(l, "reason", sl_json_str(f->why[i])) && ok;
		ok = sl_json_set(l, "remedy", sl_json_str(sandlock_feature_remedy(f, bit))) && ok;
		ok = sl_json_set(layers, sandlock_layer_name(bit), l) && ok;
	}
	ok = sl_json_set(o, "layers", layers) && ok;
	char dir[4096], why[512];
	bool memory, cg = sl_cgroup_describe(dir, sizeof(dir), &memory, why, sizeof(why));
	ok = sl_json_set(o, "cgroup", cg ? sl_json_str(dir) : json_null()) && ok;
	ok = sl_json_set(o, "cgroup_memory", json_boolean(memory)) && ok;
	ok = sl_json_set(o, "cgroup_reason", sl_json_str(cg ? "" : why)) && ok;
	ok = sl_json_set(o, "landlock_abi", json_integer(f->landlock_abi)) && ok;
	ok = sl_json_set(o, "seccomp_kill_process", json_boolean(f->seccomp_kill_process)) && ok;
	ok = sl_json_set(o, "close_range", json_boolean(f->close_range)) && ok;
	ok = sl_json_set(o, "pidfd", json_boolean(f->pidfd)) && ok;
	ok = sl_json_set(o, "unshare_files", json_boolean(f->unshare_files)) && ok;
	char *out;
	size_t len;
	if (ok && sl_json_dump(o, SL_JSON_NEWLINE, &out, &len) == 0) {
		for (size_t off = 0; off < len;) {
			ssize_t w = write(fd, out + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		free(out);
	} else {
		dprintf(fd, "sandlock: out of memory\n");
	}
	json_decref(o);
}
