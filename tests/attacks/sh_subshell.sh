# attack: sh_subshell
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a bash subshell and a background job (both fork) under --no-fork; either leaves canary child_ran
# escaped-if: ev child_ran
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
( echo subshell > "$EV/child_ran"; : )
{ echo bg > "$EV/child_ran"; } &
wait
