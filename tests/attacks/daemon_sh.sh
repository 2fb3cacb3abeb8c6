# attack: daemon_sh
# flags: --clean-env --cpu 5 --mem 256 --nproc 50
# settle: 0.3
# evidence: fork allowed: setsid -f starts a detached 'flock -s alive.lock sleep 8' in a new session; it must not outlive the run
# escaped-if: survivor
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
setsid -f /usr/bin/flock -s "$EV/alive.lock" /bin/sleep 8 </dev/null >/dev/null 2>&1
