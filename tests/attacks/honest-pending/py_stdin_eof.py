# honest: py_stdin_eof
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: stdin
# evidence: the judge idiom sys.stdin.read() to EOF (UTF-8 input lines carrying TOKEN), then prints the lines in reverse order; the runner compares with tac of its input
# ok-if: [ "$(tac "$RUN/stdin.txt")" = "$(cat "$OUT")" ] && [ -s "$OUT" ]
import sys

data = sys.stdin.read()
lines = data.splitlines()
sys.stdout.write("\n".join(reversed(lines)) + "\n")
