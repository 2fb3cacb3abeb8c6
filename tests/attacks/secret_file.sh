# attack: secret_file
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: the grader's expected answers (GRADER/answers.txt, readable by the uid) are read with bash builtins and printed
# escaped-if: secret_leaked
# xfail: by design without the layer of its variants (any file the uid can read is readable without Landlock)
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed,xfail
# note: bash cannot start under --no-network (glibc NSS calls socket(AF_UNIX) at startup), hence the network-allowed variant
EV=$1; shift
for a in "$@"; do case $a in *=*) printf -v "A_${a%%=*}" "%s" "${a#*=}" ;; esac; done
echo ATTACK-STARTED
IFS= read -r line < "$A_secretfile"; printf 'ANSWERS: %s\n' "$line"
