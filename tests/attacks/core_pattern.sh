# attack: core_pattern
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# needs: root
# evidence: /proc/sys/kernel/core_pattern (a host-wide setting that can run a program as root on the next crash) is rewritten to core.sandlock-TOKEN; the runner reads it back and restores it
# lock: sysctl
# escaped-if: grep -q "sandlock-$TOKEN" /proc/sys/kernel/core_pattern
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
# cleanup: restore_sysctl kernel/core_pattern
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
printf 'core.sandlock-%s' "$A_token" > /proc/sys/kernel/core_pattern
