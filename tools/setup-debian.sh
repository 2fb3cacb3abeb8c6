#!/bin/sh
# Install what Sandlock needs to build and to run its tests, on Debian 12.
# Run as root.  --bench also installs the peers and tools of `make bench`.
set -e
PKGS="build-essential pkg-config libseccomp-dev libcmocka-dev python3 golang-go
      procps util-linux passwd file libcap2-bin"
[ "${1:-}" = --bench ] && PKGS="$PKGS bubblewrap firejail gnuplot-nox hyperfine"
if [ "$(id -u)" != 0 ]; then
	echo "setup-debian.sh: run as root (it uses apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $PKGS >/dev/null
