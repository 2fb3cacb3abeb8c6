# honest: py_stdin_eof
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: stdin
# evidence: the classic judge input loop: for line in sys.stdin until EOF, then sys.stdin.read() returns ""; prints the line count and the words reversed, checked against the stdin file
# ok-if: out_has "lines 3" && out_has "$(awk '{print $3}' "$RUN/stdin.txt" | tr '\n' ' ')"
import sys
n, words = 0, []
for line in sys.stdin:
    n += 1
    words.append(line.split()[2])
assert sys.stdin.read() == ""
print("lines", n)
print(" ".join(words) + " ")
