# attack: udp_send_sh
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: bash's /dev/udp redirection sends a datagram to the runner's UDP listener
# escaped-if: conn udp
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
echo udp_send_sh > "/dev/udp/127.0.0.1/$A_udp"
