# honest: bash_script
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: stdin
# evidence: a plain bash script under the grader's default profile: echoes stdin with builtins, then exits 42
# ok-if: [ "$(st code)" = 42 ] && cmp -s "$RUN/stdin.txt" "$OUT"
while IFS= read -r l; do printf '%s\n' "$l"; done
exit 42
