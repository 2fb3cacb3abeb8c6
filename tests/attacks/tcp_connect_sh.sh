# attack: tcp_connect_sh
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: bash's /dev/tcp redirection connects to the runner's TCP listener
# escaped-if: conn tcp
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
exec 3<>"/dev/tcp/127.0.0.1/$A_tcp" && echo tcp_connect_sh >&3
