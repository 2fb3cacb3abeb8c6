# attack: kill_sh
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: bash's builtin kill -USR1 VICTIM; the victim records the signal or dies
# escaped-if: victim_hit
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
kill -USR1 "$A_victim"
