# honest: bash_pipeline
# flags: --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --landlock --no-network --clean-env --cpu 5 --mem 256
# setup: stdin
# evidence: a shell solution (forking profile): pipes through sort, uniq, awk, sed, tr, wc, a here-doc, command substitution and a subshell; output checked line by line
# ok-if: out_has "sorted: 3 2 1" && out_has "awk-sum 6" && out_has "sed: LINE-1" && out_has "words 12" && out_has "uniq 2" && out_has "subshell ok"
set -eu
in=$(cat)
printf '%s\n' "$in" | awk '{print $2}' | sort -rn | tr '\n' ' ' | sed 's/^/sorted: /;s/ $//'; echo
printf '%s\n' "$in" | awk '{s += $2} END {print "awk-sum", s}'
printf '%s\n' "$in" | head -n 1 | sed -E 's/^line ([0-9]+).*/LINE-\1/; s/^/sed: /'
echo "words $(printf '%s\n' "$in" | wc -w)"
echo "uniq $(printf 'a\nb\na\n' | sort | uniq | wc -l)"
(cd /; [ "$(pwd)" = / ] && echo "subshell ok")
cat <<DOC | grep -c line >/dev/null
line here-doc
DOC
