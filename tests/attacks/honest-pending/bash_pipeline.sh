# honest: bash_pipeline
# flags: --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# evidence: a shell submission (forking profile) with pipes, command substitution, a here-document, sort (with a temporary file), uniq, awk, sed, tr, head, wc, and an output file CWD/report.txt; prints pipeline-ok with known values
# ok-if: out_has "pipeline-ok 20000 [3:6667 2:6667 1:6666] 200010000 2000 [FOO-BAR]" && grep -qx "lines 20000" "$CWD/report.txt"
set -euo pipefail
seq 1 20000 >numbers.txt
n=$(wc -l <numbers.txt)
classes=$(awk '{ print $1 % 3 + 1 }' numbers.txt | sort | uniq -c | sort -k1,1nr -k2,2nr | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')
sum=$(awk '{ s += $1 } END { print s }' numbers.txt)
even=$(sed -n '0~2p' numbers.txt | sort -S 64k -T . -n -r | grep -c '[05]$')
word=$(tr 'a-z_' 'A-Z-' <<'EOF' | head -n 1
foo_bar
baz
EOF
)
echo "lines $n" >report.txt
echo "pipeline-ok $n [$classes] $sum $even [$word]"
