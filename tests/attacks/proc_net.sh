# attack: proc_net
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: /proc/net/tcp reveals the grader's listening sockets (the runner's listener port appears in LISTEN state in the output)
# escaped-if: grep -q ":$TCPHEX 00000000:0000 0A" "$OUT"
# xfail: by design without the layer of its variants (the host network namespace's /proc/net is readable without a network namespace)
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed,xfail
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
while IFS= read -r l; do printf '%s\n' "$l"; done < /proc/net/tcp
