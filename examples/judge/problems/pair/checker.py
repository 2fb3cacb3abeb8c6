"""Checker of "pair": INPUT EXPECTED OUTPUT; exit 0 accepts, 1 rejects.

Any pair of positions i < j with a[i] + a[j] == T is right, so the
reference answer (EXPECTED) is not compared, only used to know one exists.
"""
import sys


def main():
    inp, _expected, out = sys.argv[1:4]
    with open(inp) as f:
        n, t = map(int, f.readline().split())
        a = list(map(int, f.readline().split()))
    with open(out) as f:
        toks = f.read().split()
    if len(toks) != 2 or not all(x.lstrip("-").isdigit() for x in toks):
        print("expected two positions", file=sys.stderr)
        return 1
    i, j = map(int, toks)
    if not (1 <= i < j <= n):
        print("positions out of range", file=sys.stderr)
        return 1
    if a[i - 1] + a[j - 1] != t:
        print("a[%d] + a[%d] != %d" % (i, j, t), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
