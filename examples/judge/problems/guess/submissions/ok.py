# guess: binary search, at most 20 questions for N = 1000000.
n = int(input())
lo, hi = 1, n
while lo <= hi:
    m = (lo + hi) // 2
    print("?", m, flush=True)
    r = input().strip()
    if r in ("=", "-1"):
        break
    if r == "<":
        hi = m - 1
    else:
        lo = m + 1
