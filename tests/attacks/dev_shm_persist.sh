# attack: dev_shm_persist
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: /dev/shm/sandlock-canary-TOKEN is written and survives the run (visible to the next run)
# escaped-if: test -e "/dev/shm/sandlock-canary-$TOKEN"
# layers: landlock,mountns (the default allow-list leaves the host's /dev/shm out; a mount namespace gives a private one)
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
# cleanup: rm -f "/dev/shm/sandlock-canary-$TOKEN"
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
echo left-behind > "/dev/shm/sandlock-canary-$A_token"
