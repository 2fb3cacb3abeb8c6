# honest: py_recursion
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: the competitive-programming idiom sys.setrecursionlimit(10**6) plus threading.stack_size(64 MB) and a recursive DFS 200000 deep in that thread, and 50000 deep in the main thread; prints recursion-ok with both depths
# ok-if: out_has "recursion-ok 200000 50000"
import sys
import threading

sys.setrecursionlimit(10**6)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


res = []


def main():
    res.append(depth(200000))


threading.stack_size(64 * 1024 * 1024)
t = threading.Thread(target=main)
t.start()
t.join()
print("recursion-ok", res[0] if res else -1, depth(50000))
