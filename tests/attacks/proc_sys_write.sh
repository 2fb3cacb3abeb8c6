# attack: proc_sys_write
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# needs: root
# evidence: a host-wide sysctl (/proc/sys/kernel/domainname) is rewritten to sandlock-TOKEN; the runner reads it back and restores it
# lock: sysctl
# escaped-if: grep -q "sandlock-$TOKEN" /proc/sys/kernel/domainname
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
# cleanup: restore_sysctl kernel/domainname
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
printf 'sandlock-%s' "$A_token" > /proc/sys/kernel/domainname
