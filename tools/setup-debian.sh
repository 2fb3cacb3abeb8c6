#!/bin/sh
# Install what Sandlock needs to build and to run its tests, on Debian 12.
# Run as root.  --bench also installs the peers and tools of `make bench`.
set -e
PKGS="build-essential pkg-config libseccomp-dev libcmocka-dev python3 golang-go
      procps util-linux passwd file libcap2-bin python3-seccomp python3-numpy
      python3-venv python3-setuptools python3-wheel python3-pip
      golang-github-containers-common openjdk-17-jdk-headless nodejs"
[ "${1:-}" = --bench ] && PKGS="$PKGS bubblewrap firejail gnuplot-nox hyperfine"
if [ "$(id -u)" != 0 ]; then
	echo "setup-debian.sh: run as root (it uses apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# what it does, as it goes: a fresh host takes minutes here
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
if [ ! -s "$MOBY" ]; then
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -qq golang-github-docker-docker-dev >/dev/null &&
	 dpkg-deb --fsys-tarfile ./*.deb | tar -x -C / ".$MOBY") ||
		echo "setup-debian.sh: could not extract moby's seccomp profile" >&2
	rm -rf "$tmp"
fi
