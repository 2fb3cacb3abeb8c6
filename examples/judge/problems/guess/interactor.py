"""The interactor of "guess": reads the hidden number from the test's input
file (its first argument), tells the submission N (the numbers are 1..N),
then answers each question "? x" with "<" (the number is smaller than x),
">" (larger) or "=" (found).  Exit 0: found within 20 questions; exit 1
(wrong answer): a malformed line, the end of the submission's output, or a
21st question (answered "-1" first, so that the submission can stop)."""
import sys

N, QUESTIONS = 1000000, 20


def reject(why):
    print("guess: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1]) as f:
        secret = int(f.read().split()[0])
    print(N, flush=True)
    for _ in range(QUESTIONS):
        line = sys.stdin.readline()
        if not line:
            reject("the submission stopped asking")
        parts = line.split()
        if len(parts) != 2 or parts[0] != "?" or not parts[1].isdigit():
            reject("malformed question %r" % line[:40])
        x = int(parts[1])
        if x == secret:
            print("=", flush=True)
            sys.exit(0)
        print("<" if secret < x else ">", flush=True)
    print("-1", flush=True)
    reject("more than %d questions" % QUESTIONS)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        # the submission went away mid-answer: it did not find the number
        sys.exit(1)
