#!/bin/bash
# The sandbox inside real containers: Docker's default security settings
# (seccomp profile, capabilities, masked /proc) as root and as a non-root
# user, with and without no-new-privileges; the profile we ship
# (contrib/seccomp) with and without systempaths=unconfined, and its OCI
# form run by runc directly (as containerd does for a Kubernetes
# localhostProfile); seccomp=unconfined as the baseline; Podman's profile
# file; the bindings' tests.  Each container runs tests/containers/inside.sh
# (or bindings-inside.sh), which judges by evidence.
#
#   SANDLOCK=... PROGS=... [SANDLOCK_SRC=checkout] tests/containers.sh
#
# Run as root by make check.  No image registry is needed: the image is an
# empty root imported locally (sandlock-test-empty:1), and the host's /usr,
# /lib*, /bin, /sbin and /etc are mounted read-only.  Without a working
# engine everything is skipped, with the reason.
#
# Two lanes run at once: the root containers (whose runs drop to 65534) and
# the uid 1000 ones; never two containers of one uid together, since the
# kernel counts RLIMIT_NPROC per uid over every container while each
# container's /proc shows its own processes only.
# Last line: "containers: P passed, F failed, S skipped".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
IMAGE=sandlock-test-empty:1
PODMAN_PROFILE=/usr/share/containers/seccomp.json
RUN_ID=sandlock-test-$(basename "$WORK" | sed 's/.*\.//')
LANES=()
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0 # not in a subshell killed before it reset its traps (tests/lib.sh)
	local p
	for p in "${LANES[@]}"; do kill "$p" 2>/dev/null; done
	docker ps -aq --filter "label=sandlock-test-run=$RUN_ID" 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1
	for p in "$WORK"/disk.*/; do mountpoint -q "$p" && umount "$p"; done 2>/dev/null
	if [ -d "$WORK/runc" ]; then
		for p in $(runc --root "$WORK/runc" list -q 2>/dev/null); do runc --root "$WORK/runc" delete -f "$p" >/dev/null 2>&1; done
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- is there an engine that can run our image? ----
if ! command -v docker >/dev/null 2>&1; then
	skip "containers: no docker command"
	summary containers
	exit
fi
if ! timeout 30 docker info >"$WORK/info" 2>&1; then
	skip "containers: no Docker engine answers here ($(tail -1 "$WORK/info" | head -c 200))"
	summary containers
	exit
fi
if ! docker image inspect "$IMAGE" >/dev/null 2>&1; then
	tar cf "$WORK/empty.tar" --files-from /dev/null
	if ! timeout 60 docker import "$WORK/empty.tar" "$IMAGE" >/dev/null 2>"$WORK/err"; then
		skip "containers: cannot import an image: $(head -c 200 "$WORK/err")"
		summary containers
		exit
	fi
fi

# The checkout (the shipped profile, the bindings): run-all runs a staged
# copy of tests/ only, from the checkout (make's directory)
SRC=
for d in "${SANDLOCK_SRC:-}" "$ROOT" "$PWD"; do
	if [ -n "$d" ] && [ -f "$d/contrib/seccomp/sandlock-docker.json" ]; then SRC=$(cd "$d" && pwd); break; fi
done
PROFILE=$SRC/contrib/seccomp/sandlock-docker.json
OCI_PROFILE=$SRC/contrib/seccomp/sandlock-oci.json

# ---- the stage: the binary under both names, the programs, the checks ----
ST=$WORK/stage
mkdir -p "$ST/bin"
cp "$SANDLOCK" "$ST/bin/sandlock"
ln "$ST/bin/sandlock" "$ST/bin/sandbox_exec"
cp "$HERE"/containers/*.sh "$HERE"/containers/*.py "$ST/"
# many runs at once beside fork bombs (issue 25): the suite of the host
cp "$HERE/concurrent.sh" "$HERE/lib.sh" "$HERE/idle_procs.py" "$ST/"
# runs side by side, inside the container (inside.sh runs it)
cp "$HERE/neighbours.py" "$HERE/nsjail.py" "$HERE/results.py" "$ST/"
# a run cannot fill a small tmpfs /tmp its neighbours need (tconfig)
cp "$HERE/tmp_fill.py" "$ST/"
[ -n "${PROGS:-}" ] && [ -d "$PROGS" ] && cp -r "$PROGS" "$ST/progs"
# the language profiles' check (hardened.sh runs it in the restricted shape)
mkdir -p "$ST/profiles" && cp "$HERE/profiles.py" "$HERE/results.py" "$ST/profiles/"
# the profile examples of the README and docs/, run as written
[ -f "$ROOT/README.md" ] && cp "$ROOT/README.md" "$ST/"
[ -d "$ROOT/docs" ] && mkdir -p "$ST/docs" && cp "$ROOT"/docs/*.md "$ST/docs/"
chmod -R a+rX "$WORK"
BASE=(--rm --label "sandlock-test-run=$RUN_ID" --tmpfs /tmp:exec --network none
      -v /usr:/usr:ro -v /lib:/lib:ro -v /bin:/bin:ro -v /sbin:/sbin:ro -v /etc:/etc:ro
      -v "$ST:/stage:ro" -e SANDLOCK=/stage/bin/sandlock -e PROGS=/stage/progs)
[ -d /lib64 ] && BASE+=(-v /lib64:/lib64:ro)

# relay LABEL T0 OUT: the checks' lines under LABEL, and the one line of
# this configuration (duration, whether namespaces worked)
relay() {
	local label=$1 t0=$2 out=$3 l nsline
	while IFS= read -r l; do
		case $l in
		PASS*|FAIL*|SKIP*) echo "${l%% *} $label: ${l#* }" ;;
		"    "*) echo "$l" ;;
		esac
	done <<<"$out"
	nsline=$(echo "$out" | sed -n 's/^NAMESPACES //p' | head -1)
	echo "  ($label: $((SECONDS - t0)) s${nsline:+; namespaces: $nsline})"
}
# ran LABEL STATUS OUT SUMMARY-RE: did the container get to its summary?
ran() {
	echo "$3" | grep -qE "$4" && return 0
	echo "FAIL $1: the container did not run the checks (status $2): $(echo "$3" | tail -3 | tr '\n' ' ' | head -c 400)"
	return 1
}

# dconfig LABEL EXPECT_NS PROFILE DOCKER-OPTIONS...: a docker container
dconfig() {
	local label=$1 ns=$2 prof=$3 out st t0=$SECONDS
	shift 3
	out=$(timeout 300 docker run "${BASE[@]}" -e EXPECT_NS="$ns" -e PROFILE="$prof" "$@" \
		"$IMAGE" /bin/bash /stage/inside.sh 2>&1)
	st=$?
	ran "$label" $st "$out" '^inside: [0-9]+ passed' && relay "$label" $t0 "$out"
}

# cconfig LABEL DOCKER-OPTIONS...: tests/concurrent.sh in a docker container
# (8 honest multi-threaded runs beside 2 fork bombs; start-up that does not
# grow with the container's processes)
cconfig() {
	local label=$1 out st t0=$SECONDS
	shift
	out=$(timeout 300 docker run "${BASE[@]}" -e SANDLOCK_CONCURRENT_ROUNDS="${SANDLOCK_CONCURRENT_ROUNDS:-2}" \
		"$@" "$IMAGE" /bin/bash /stage/concurrent.sh 2>&1)
	st=$?
	ran "$label" $st "$out" '^concurrent: [0-9]+ passed' && relay "$label" $t0 "$out"
}

# rconfig LABEL EXPECT_NS UID masked|unmasked: runc itself, the OCI profile
# as linux.seccomp, Docker's capabilities and /proc masking (or none)
rconfig() {
	local label=$1 ns=$2 uid=$3 mask=$4 out st t0=$SECONDS id b
	if ! command -v runc >/dev/null 2>&1; then
		echo "SKIP $label: no runc here"
		return
	fi
	id=$RUN_ID-$uid-$mask
	b=$WORK/oci-$uid-$mask
	mkdir -p "$b" "$WORK/runc"
	if ! out=$(/usr/bin/python3 "$ST/oci_config.py" "$b" "$OCI_PROFILE" "$uid" "$mask" "$ST" \
		SANDLOCK=/stage/bin/sandlock PROGS=/stage/progs EXPECT_NS="$ns" PROFILE=shipped \
		-- /bin/bash /stage/inside.sh 2>&1); then
		echo "FAIL $label: cannot write the OCI config: $(echo "$out" | tail -2 | tr '\n' ' ')"
		return
	fi
	out=$(timeout 300 runc --root "$WORK/runc" run --bundle "$b" "$id" </dev/null 2>&1)
	st=$?
	runc --root "$WORK/runc" delete -f "$id" >/dev/null 2>&1
	ran "$label" $st "$out" '^inside: [0-9]+ passed' && relay "$label" $t0 "$out"
}

# hconfig LABEL DOCKER-OPTIONS...: a hardened container (hardened.sh)
hconfig() {
	local label=$1 out st t0=$SECONDS
	shift
	out=$(timeout 900 docker run "${BASE[@]}" -e PROFILES_PY=/stage/profiles/profiles.py -e HOME=/tmp \
		"$@" "$IMAGE" /bin/bash /stage/hardened.sh 2>&1)
	st=$?
	ran "$label" $st "$out" '^hardened: [0-9]+ passed' && relay "$label" $t0 "$out"
}

# fill LABEL TMP DOCKER-OPTIONS...: tests/tmp_fill.py in a container whose
# /tmp is TMP (docker run's options for it, in place of BASE's tmpfs, which
# is as large as the machine allows)
fill() {
	local label=$1 tmp=$2 out st t0=$SECONDS b=() skipnext=
	shift 2
	for a in "${BASE[@]}"; do
		if [ -n "$skipnext" ]; then skipnext=; continue; fi
		if [ "$a" = --tmpfs ]; then skipnext=1; b+=($tmp); continue; fi
		b+=("$a")
	done
	out=$(timeout 600 docker run "${b[@]}" -e SANDLOCK_HOSTSIM=container "$@" "$IMAGE" \
		/usr/bin/python3 /stage/tmp_fill.py 2>&1)
	st=$?
	ran "$label" $st "$out" '^tmp_fill: [0-9]+ passed' && relay "$label" $t0 "$out"
}

# tconfig LABEL DOCKER-OPTIONS...: where /tmp is a 64 MiB tmpfs
tconfig() {
	local label=$1
	shift
	fill "$label" "--tmpfs /tmp:exec,size=64m,mode=1777" "$@"
}

# kconfig LABEL DOCKER-OPTIONS...: where /tmp is a small disk (a
# container's own /tmp is its overlay, on the host's disk: too large to
# fill in a test), an ext4 file system on a loop device bound there
kconfig() {
	local label=$1 d
	shift
	d=$(mktemp -d "$WORK/disk.XXXXXX")
	if ! { truncate -s 128M "$d.img" && mkfs.ext4 -q -F "$d.img" && mount -o loop "$d.img" "$d"; } \
		>/dev/null 2>&1; then
		skip "$label: no small disk can be made here (a loop device and mkfs.ext4 as root)"
		return
	fi
	chmod 1777 "$d"
	fill "$label" "-v $d:/tmp" "$@"
	umount "$d" && rm -f "$d.img"
}

# bconfig UID: the bindings' tests in a default container
GOMOUNT=() GOBIN=
if command -v go >/dev/null 2>&1; then
	goroot=$(go env GOROOT 2>/dev/null)
	case $goroot in
	"") ;;
	/usr/*) GOBIN=$goroot/bin: ;;
	*) GOMOUNT=(-v "$goroot:$goroot:ro"); GOBIN=$goroot/bin: ;;
	esac
fi
GOCACHES=${SANDLOCK_TEST_GOCACHE:-/var/tmp/sandlock-test-gocache}
bconfig() {
	local uid=$1 label="bindings in a default container, uid $1" out st t0=$SECONDS c=()
	if [ -z "$SRC" ] && [ ! -d "$ROOT/bindings" ]; then
		echo "FAIL $label: no checkout with bindings/ (set SANDLOCK_SRC)"
		return
	fi
	# a Go build cache per uid, kept between runs
	if mkdir -p "$GOCACHES" 2>/dev/null && install -d -o "$uid" -g "$uid" -m 700 "$GOCACHES/uid-$uid" 2>/dev/null; then
		c=(-v "$GOCACHES/uid-$uid:/gocache")
	fi
	out=$(timeout 900 docker run "${BASE[@]}" --user "$uid:$uid" "${GOMOUNT[@]}" "${c[@]}" \
		-v "${SRC:-$ROOT}:/src:ro" -e HOME=/tmp -e PATH="${GOBIN}/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin" \
		"$IMAGE" /bin/bash /stage/bindings-inside.sh 2>&1)
	st=$?
	ran "$label" $st "$out" '^bindings: [0-9]+ passed' && relay "$label" $t0 "$out"
}

NNP=(--security-opt no-new-privileges)
SHIP=(--security-opt "seccomp=$PROFILE")
UNMASK=(--security-opt systempaths=unconfined)
U=(--user 1000:1000)
PODMAN=(--security-opt "seccomp=$PODMAN_PROFILE")
shipped() { # the checks that need the shipped profile
	if [ -z "$SRC" ] || [ ! -s "$OCI_PROFILE" ]; then
		echo "FAIL $1: the shipped profile was not found (contrib/seccomp/sandlock-docker.json, sandlock-oci.json under ${SANDLOCK_SRC:-} $ROOT $PWD; set SANDLOCK_SRC)"
		return 1
	fi
}
# SANDLOCK_CONTAINERS=one (make check): the Docker default, once as root
# and once as uid 1000; =rest (check-full after make check): every other
# configuration; all (the default, make check-full): every configuration
MODE=${SANDLOCK_CONTAINERS:-all}
case $MODE in one | rest | all) ;; *) echo "containers.sh: SANDLOCK_CONTAINERS=$MODE (one, rest, all)" >&2; exit 125 ;; esac
lane_root() {
	if [ "$MODE" != rest ]; then
		dconfig "default profile, root" no default
		cconfig "default profile, root, concurrent runs"
	fi
	[ "$MODE" = one ] && return
	# issue 25's bar: 8 of 8 honest runs beside the bombs in 10 of 10 rounds
	SANDLOCK_CONCURRENT_ROUNDS=10 cconfig "default profile, root, concurrent runs, 10 rounds"
	dconfig "default profile, root, no-new-privileges" no default "${NNP[@]}"
	if shipped "shipped profile, root"; then
		dconfig "shipped profile, root (proc masked)" userns shipped "${SHIP[@]}"
		dconfig "shipped profile, root, systempaths=unconfined" yes shipped "${SHIP[@]}" "${UNMASK[@]}"
		rconfig "OCI profile (runc), root, /proc masked" userns 0 masked
	fi
	if [ -s "$PODMAN_PROFILE" ]; then
		dconfig "Podman's profile file, root (proc masked)" userns podman "${PODMAN[@]}"
	else echo "SKIP Podman's profile: $PODMAN_PROFILE not installed (containers-common)"; fi
	# hardened: root may not change uid; fails closed with a remedy,
	# or runs labelled under --best-effort
	hconfig "hardened: root, cap-drop ALL, no-new-privileges" --cap-drop ALL "${NNP[@]}"
	# only SETUID and SETGID added back: root could drop to the program's
	# uid, but not stop it (no CAP_KILL) nor give it its scratch (no
	# CAP_CHOWN): fails closed the same way
	hconfig "hardened: root, cap-drop ALL + SETUID SETGID" --cap-drop ALL --cap-add SETUID \
		--cap-add SETGID "${NNP[@]}"
	tconfig "default profile, root, 64 MiB tmpfs /tmp"
	kconfig "default profile, root, 128 MiB disk /tmp"
	bconfig 0
}
lane_user() {
	if [ "$MODE" != rest ]; then
		dconfig "default profile, uid 1000" no default "${U[@]}"
		cconfig "default profile, uid 1000, concurrent runs" "${U[@]}"
	fi
	[ "$MODE" = one ] && return
	SANDLOCK_CONCURRENT_ROUNDS=10 cconfig "default profile, uid 1000, concurrent runs, 10 rounds" "${U[@]}"
	dconfig "default profile, uid 1000, no-new-privileges" no default "${U[@]}" "${NNP[@]}"
	if shipped "shipped profile, uid 1000"; then
		dconfig "shipped profile, uid 1000 (proc masked)" userns shipped "${U[@]}" "${SHIP[@]}"
		dconfig "shipped profile, uid 1000, systempaths=unconfined" yes shipped "${U[@]}" "${SHIP[@]}" "${UNMASK[@]}"
		dconfig "shipped profile, uid 1000, systempaths=unconfined, no-new-privileges, cap-drop ALL" yes shipped \
			"${U[@]}" "${SHIP[@]}" "${UNMASK[@]}" "${NNP[@]}" --cap-drop ALL
		rconfig "OCI profile (runc), uid 1000, /proc unmasked" yes 1000 unmasked
	fi
	# the baseline of the profile check: no filter at all.  Masked, the
	# namespaces fail as with ours (the masking, not the profile, is what
	# stops them); unmasked, they work as with ours
	dconfig "seccomp=unconfined, uid 1000 (proc masked)" userns unconfined "${U[@]}" --security-opt seccomp=unconfined
	dconfig "seccomp=unconfined, uid 1000, systempaths=unconfined" yes unconfined "${U[@]}" \
		--security-opt seccomp=unconfined "${UNMASK[@]}"
	# Kubernetes' restricted shape (RuntimeDefault seccomp: the engine's
	# default profile): the seed line and every profile run
	hconfig "restricted: uid 1000, cap-drop ALL, no-new-privileges, read-only root, tmpfs /tmp" \
		"${U[@]}" --cap-drop ALL "${NNP[@]}" --read-only
	tconfig "default profile, uid 1000, 64 MiB tmpfs /tmp" "${U[@]}"
	kconfig "default profile, uid 1000, 128 MiB disk /tmp" "${U[@]}"
	bconfig 1000
}
# the committed profile is what generate.py makes from the installed default
MOBY=/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json
if [ -z "$SRC" ] || [ "$MODE" = one ]; then :
elif [ ! -s "$MOBY" ]; then skip "shipped profile up to date: $MOBY not installed (tools/setup-debian.sh --test)"
elif out=$(/usr/bin/python3 "$SRC/contrib/seccomp/generate.py" --check "$MOBY" 2>&1); then
	pass "shipped profile up to date: generate.py --check against $MOBY"
else fail "shipped profile up to date: $out"; fi

T0=$SECONDS
lane_root >"$WORK/lane-root" 2>&1 &
LANES+=($!)
lane_user >"$WORK/lane-user" 2>&1 &
LANES+=($!)
wait "${LANES[@]}"
LANES=()
for lane in root user; do
	while IFS= read -r l; do
		case $l in
		PASS*) pass "${l#PASS }" ;;
		FAIL*) fail "${l#FAIL }" ;;
		SKIP*) skip "${l#SKIP }" ;;
		*) echo "$l" ;;
		esac
	done <"$WORK/lane-$lane"
done
echo "  (all containers: $((SECONDS - T0)) s, two lanes at once)"
summary containers
