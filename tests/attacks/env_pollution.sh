# attack: env_pollution
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: bash_env
# evidence: the grader's environment carries BASH_ENV=<hostile script>; if it reaches the sandboxed bash, the script runs first and leaves canary bash_env_ran
# escaped-if: ev bash_env_ran
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
echo "BASH_ENV=${BASH_ENV-unset}"
