#!/bin/bash
# The sandbox inside real containers: Docker's default security settings
# (seccomp profile, capabilities, masked /proc) as root and as a non-root
# user, with and without no-new-privileges, with the profile we ship
# (contrib/seccomp), and the bindings there.  Each configuration runs
# tests/containers/inside.sh, which judges by evidence.
#
#   tests/containers.sh      (SANDLOCK=..., PROGS=...; as root, by make check)
#
# No image registry is needed: the image is an empty root imported locally,
# and the host's /usr, /lib*, /bin, /sbin and /etc are mounted read-only.
# Without a working engine everything is skipped, with the reason.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
IMAGE=sandlock-test-empty:1
PROFILE=$ROOT/contrib/seccomp/sandlock-docker.json
NAMES=()
cleanup() { for n in "${NAMES[@]}"; do docker rm -f "$n" >/dev/null 2>&1; done; rm -rf "$WORK"; }
trap cleanup EXIT

if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
	skip "containers: no Docker engine answers here ($(docker info 2>&1 | tail -1 | head -c 200))"
	summary containers
	exit
fi
if ! docker image inspect "$IMAGE" >/dev/null 2>&1; then
	tar cf "$WORK/empty.tar" --files-from /dev/null
	if ! docker import "$WORK/empty.tar" "$IMAGE" >/dev/null 2>"$WORK/err"; then
		skip "containers: cannot import an image: $(head -c 200 "$WORK/err")"
		summary containers
		exit
	fi
fi

# the stage: the binary under both names, the programs, the checks
ST=$WORK/stage
mkdir -p "$ST/bin"
cp "$SANDLOCK" "$ST/bin/sandlock"
ln "$ST/bin/sandlock" "$ST/bin/sandbox_exec"
cp "$HERE/containers/inside.sh" "$ST/"
[ -n "${PROGS:-}" ] && cp -r "$PROGS" "$ST/progs"
chmod -R a+rX "$WORK"
BASE=(--rm --tmpfs /tmp:exec --network none
      -v /usr:/usr:ro -v /lib:/lib:ro -v /bin:/bin:ro -v /sbin:/sbin:ro -v /etc:/etc:ro
      -v "$ST:/stage:ro" -e SANDLOCK=/stage/bin/sandlock -e PROGS=/stage/progs)
[ -d /lib64 ] && BASE+=(-v /lib64:/lib64:ro)

# config LABEL EXPECT_NS DOCKER-OPTIONS...
config() {
	local label=$1 ns=$2 name out st t0 line
	shift 2
	name=sandlock-test-$$-${#NAMES[@]}
	NAMES+=("$name")
	t0=$SECONDS
	out=$(timeout 300 docker run --name "$name" "${BASE[@]}" -e EXPECT_NS="$ns" "$@" \
		"$IMAGE" /bin/bash /stage/inside.sh 2>&1)
	st=$?
	line=$(echo "$out" | grep -E '^inside: [0-9]+ passed' | tail -1)
	if [ -z "$line" ]; then
		fail "$label: the container did not run the checks (status $st): $(echo "$out" | tail -3 | tr '\n' ' ' | head -c 400)"
		return
	fi
	while IFS= read -r l; do
		case $l in
		PASS*) pass "$label: ${l#PASS }" ;;
		FAIL*) fail "$label: ${l#FAIL }" ;;
		esac
	done <<<"$out"
	echo "  ($label: $((SECONDS - t0)) s; namespaces: $([ "$ns" = yes ] && echo expected || echo refused, reported))"
}

NNP=(--security-opt no-new-privileges)
SHIP=(--security-opt "seccomp=$PROFILE")
UNMASK=(--security-opt systempaths=unconfined)
config "default profile, root" no
config "default profile, uid 1000" no --user 1000:1000
config "default profile, root, no-new-privileges" no "${NNP[@]}"
config "default profile, uid 1000, no-new-privileges" no --user 1000:1000 "${NNP[@]}"
if [ -s "$PROFILE" ]; then
	config "shipped profile, root (proc masked)" no "${SHIP[@]}"
	config "shipped profile, uid 1000 (proc masked)" no --user 1000:1000 "${SHIP[@]}"
	config "shipped profile, root, systempaths=unconfined" yes "${SHIP[@]}" "${UNMASK[@]}"
	config "shipped profile, uid 1000, systempaths=unconfined, no-new-privileges, cap-drop ALL" yes \
		--user 1000:1000 "${SHIP[@]}" "${UNMASK[@]}" "${NNP[@]}" --cap-drop ALL
	# the baseline of the profile check: with no filter at all, namespaces
	# work as with ours (so ours adds what they need, and the default lacks it)
	config "no profile (seccomp=unconfined), uid 1000" yes --user 1000:1000 \
		--security-opt seccomp=unconfined "${UNMASK[@]}"
else
	fail "shipped profile: $PROFILE missing"
fi

# the bindings, in a default container
if [ -x "$ROOT/tests/bindings.sh" ]; then
	for u in 0:0 1000:1000; do
		name=sandlock-test-$$-b$u
		NAMES+=("${name/:/-}")
		t0=$SECONDS
		out=$(timeout 600 docker run --name "${name/:/-}" "${BASE[@]}" --user "$u" \
			-v "$ROOT:/src:ro" -e HOME=/tmp -e PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin \
			"$IMAGE" /src/tests/bindings.sh 2>&1)
		line=$(echo "$out" | grep -E '^bindings: [0-9]+ passed, 0 failed' | tail -1)
		if [ -n "$line" ]; then pass "bindings in a default container, uid ${u%%:*}: $line"
		else fail "bindings in a default container, uid ${u%%:*}: $(echo "$out" | grep -E '^(FAIL|bindings:)' | head -5 | tr '\n' ' ')"; fi
		echo "  (bindings, uid ${u%%:*}: $((SECONDS - t0)) s)"
	done
fi
summary containers
