#!/bin/sh
# Install what Sandlock needs, on Debian 12, in proportion.  Run as root.
#   (no option)  the build and the demo: make, make demo
#   --test       adds what the test tiers need: make unit, make check,
#                make check-full (cmocka, Go, Java, Node, numpy, strace,
#                python3-seccomp, the venv/wheel tools of the binding's
#                tests, and the container seccomp profiles the host
#                simulations read; Docker is not installed here)
#   --bench      adds the peers and tools of make bench (bubblewrap,
#                firejail, gnuplot)
#   --wasm       adds what make wasm needs (the WebAssembly backend,
#                src/wasm/): the wasm32-wasi toolchain, wabt, and a deb-src
#                line for CPython's and Duktape's source
# Options combine: setup-debian.sh --test --wasm.  What each costs on a
# fresh Debian 12 is in the README ("The two commands").
set -e
PKGS="build-essential pkg-config libseccomp-dev libjansson-dev python3"
TEST= WASM=
for a in "$@"; do
	case $a in
	--test) TEST=1
		PKGS="$PKGS libcmocka-dev golang-go procps util-linux passwd file libcap2-bin strace time
		      python3-seccomp python3-numpy python3-venv python3-setuptools python3-wheel
		      python3-pip golang-github-containers-common openjdk-17-jdk-headless nodejs" ;;
	--bench) PKGS="$PKGS bubblewrap firejail gnuplot-nox" ;;
	--wasm) WASM=1
		PKGS="$PKGS clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32 wabt
		      python3.11 dpkg-dev" ;;
	*) echo "setup-debian.sh: unknown option $a (use --test, --bench, --wasm)" >&2; exit 125 ;;
	esac
done
if [ "$(id -u)" != 0 ]; then
	echo "setup-debian.sh: run as root (it uses apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# what it does, as it goes: a fresh host takes minutes here
# `apt-get source python3.11` (tools/wasm/build.sh) needs the source
# index of the same archive the binaries come from: the deb stanzas of
# the system's sources, copied as deb-src.
if [ -n "$WASM" ] && [ -f /etc/apt/sources.list.d/debian.sources ] &&
   ! grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources; then
	echo "setup-debian.sh: adding deb-src (/etc/apt/sources.list.d/sandlock-src.sources)"
	sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
		> /etc/apt/sources.list.d/sandlock-src.sources
fi
echo "setup-debian.sh: updating the package lists (apt-get update)"
apt-get update -qq
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup-debian.sh: installing$missing"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $PKGS >/dev/null
else
	echo "setup-debian.sh: every package is installed already"
fi
# The host simulations (tests/hosts) read moby's default seccomp profile,
# which Debian ships in a Go source package; only that one file is taken.
MOBY=/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json
if [ -n "$TEST" ] && [ ! -s "$MOBY" ]; then
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -qq golang-github-docker-docker-dev >/dev/null &&
	 dpkg-deb --fsys-tarfile ./*.deb | tar -x -C / ".$MOBY") ||
		echo "setup-debian.sh: could not extract moby's seccomp profile" >&2
	rm -rf "$tmp"
fi
