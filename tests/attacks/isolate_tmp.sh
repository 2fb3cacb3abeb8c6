# attack: isolate_tmp
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a file written into $TMPDIR (the grader's TMPDIR, kept by --clean-env) survives the run; the program prints its path and the runner checks it afterwards
# escaped-if: f=$(sed -n 's/^TMPFILE=//p' "$OUT"); [ -n "$f" ] && [ -e "$f" ]
# xfail: by design without the layer of its variants (a private TMPDIR removed after the run is --isolate-tmp)
# variant: - | --isolate-tmp --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed,xfail
# cleanup: f=$(sed -n 's/^TMPFILE=//p' "$OUT"); case $f in */sandlock-canary-"$TOKEN") rm -f "$f" ;; esac
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
f="${TMPDIR:-/tmp}/sandlock-canary-$A_token"
echo left-behind > "$f" && echo "TMPFILE=$f"
