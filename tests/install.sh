#!/bin/bash
# make install into a prefix of its own, after the README's own build: the
# compile line sandlock(3) gives works from there, the program finds the
# library at run time without help, sandlock(1) runs from there, and make
# uninstall leaves the prefix as it found it.
#   tests/install.sh [BUILD-DIR]   (root of the checkout: ../)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
SANDLOCK=${SANDLOCK:-$ROOT/$BUILD/sandlock}
. "$ROOT/tests/lib.sh"
P=$WORK/prefix
if make -s -C "$ROOT" BUILD="$BUILD" PREFIX="$P" install >"$WORK/install.log" 2>&1; then
	pass "make install PREFIX=<temporary>"
else
	fail "make install: $(tail -3 "$WORK/install.log" | tr '\n' ' ')"
fi
pc=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --variable=prefix sandlock 2>&1)
if [ "$pc" = "$P" ]; then pass "sandlock.pc names the prefix installed to"; else fail "sandlock.pc prefix: $pc"; fi
cat >"$WORK/grader.c" <<'C'
#include <sandlock.h>
#include <stdio.h>
int main(void)
{
	struct sandlock_policy p;
	struct sandlock_result r;
	sandlock_policy_init(&p);
	p.no_fork = true;
	char *argv[] = { "/bin/true", NULL };
	int err = sandlock_run(&p, argv, &r);
	printf("%d %s\n", err, sandlock_verdict_name(r.verdict));
	sandlock_policy_release(&p);
	return err != 0;
}
C
# the compile line of sandlock(3), verbatim
if (cd "$WORK" && PKG_CONFIG_PATH=$P/lib/pkgconfig sh -c 'cc grader.c $(pkg-config --cflags --libs sandlock) -o grader') >"$WORK/cc.log" 2>&1; then
	pass "cc grader.c \$(pkg-config --cflags --libs sandlock) works from the prefix"
else
	fail "compile against the prefix: $(head -c 300 "$WORK/cc.log")"
fi
out=$(env -u LD_LIBRARY_PATH "$WORK/grader" 2>&1)
if [ "$out" = "0 ok" ]; then pass "the grader finds libsandlock.so.0 at run time and runs a sandbox"; else fail "installed grader: $out"; fi
out=$("$P/bin/sandlock" --no-fork -- /bin/echo installed 2>&1)
if [ "$out" = installed ]; then pass "the installed sandlock(1) runs"; else fail "installed sandlock: $out"; fi
if make -s -C "$ROOT" BUILD="$BUILD" PREFIX="$P" uninstall >"$WORK/uninstall.log" 2>&1; then
	left=$(find "$P" ! -type d 2>/dev/null)
	if [ -z "$left" ]; then pass "make uninstall removes every file install put there"; else fail "left after uninstall: $left"; fi
else
	fail "make uninstall: $(tail -3 "$WORK/uninstall.log" | tr '\n' ' ')"
fi
# The Python binding: the one command of bindings/python/README.md,
# verbatim (python3 is Debian's /usr/bin/python3, VENV a fresh one), run
# in the checkout, offline; then the module runs a sandbox, and the
# checkout's git status is what it was (pip's build/ and *.egg-info are
# ignored).  What the build left is removed after, unless it was there.
PYDIR=$ROOT/bindings/python
cmd=$(sed -n 's/^    \(python3 -m venv --system-site-packages VENV && .*\)$/\1/p' "$PYDIR/README.md")
if [ -z "$cmd" ]; then
	fail "python binding: no install command in bindings/python/README.md"
elif ! /usr/bin/python3 -c 'import venv, ensurepip, wheel' 2>/dev/null; then
	skip "python binding installs offline: cannot import venv, ensurepip or wheel (apt-get install python3-venv python3-wheel)"
else
	cmd=$(printf '%s' "$cmd" | sed -e "s|^python3 |/usr/bin/python3 |" -e "s|VENV|$WORK/venv|g")
	gitst() { git -C "$ROOT" status --porcelain --untracked-files=all 2>/dev/null; }
	before=$(gitst)
	had=$(cd "$PYDIR" && ls -d build *.egg-info 2>/dev/null)
	if (cd "$ROOT" && sh -c "$cmd") >"$WORK/pip.log" 2>&1; then
		pass "python binding: the README's command installs it offline into a fresh venv"
	else
		fail "python binding install: $(tail -3 "$WORK/pip.log" | tr '\n' ' ')"
	fi
	out=$(cd / && SANDLOCK=$SANDLOCK "$WORK/venv/bin/python" -c '
import sandlock_judge as s
assert "/venv/" in s.__file__, s.__file__
print(s.run(s.Policy(no_fork=True), ["/bin/true"]).verdict.value)' 2>&1)
	if [ "$out" = ok ]; then pass "python binding: the installed module runs a sandbox"; else fail "installed python binding: $out"; fi
	if ! git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		skip "python binding: the checkout's git status: $ROOT is not a git checkout (not meaningful for this build)"
	elif [ "$(gitst)" = "$before" ]; then
		pass "python binding: the install leaves git status as it was"
	else
		fail "python binding: the install left in the checkout: $(diff <(echo "$before") <(gitst) | tr '\n' ' ' | head -c 300)"
	fi
	[ -n "$had" ] || (cd "$PYDIR" && rm -rf build ./*.egg-info)
fi
summary install
