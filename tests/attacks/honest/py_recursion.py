# honest: py_recursion
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a recursive DFS/memoized solution after sys.setrecursionlimit(200000): 100000-deep recursion in Python, plus a 30000-deep recursive json-like structure; prints recursion-ok 100000
# ok-if: out_has "recursion-ok 100000 5000050000"
import sys
sys.setrecursionlimit(200000)

def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)

def total(n, acc=0):
    return acc if n == 0 else total(n - 1, acc + n)

def nest(n):
    return [] if n == 0 else [nest(n - 1)]

def measure(x):
    return 0 if not x else 1 + measure(x[0])

assert measure(nest(30000)) == 30000
print("recursion-ok", depth(100000), total(100000))
