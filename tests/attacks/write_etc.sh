# attack: write_etc
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# needs: root
# evidence: a canary file /etc/sandlock-canary-TOKEN is created (as root the sandbox must drop privileges first)
# escaped-if: test -e "/etc/sandlock-canary-$TOKEN"
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
# cleanup: rm -f "/etc/sandlock-canary-$TOKEN"
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
echo pwned > "/etc/sandlock-canary-$A_token"
