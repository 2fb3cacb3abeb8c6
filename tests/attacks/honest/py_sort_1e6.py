# honest: py_sort_1e6
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: sorts 10^6 pseudo-random ints (fixed seed: list.sort, then sorted with a key) and verifies the order; prints sort-ok with min, median and max the runner checks
# ok-if: out_has "sort-ok 1000000 3163 499946538 999998164"
import random
r = random.Random(12345)
a = [r.randrange(10**9) for _ in range(10**6)]
a.sort()
assert all(a[i] <= a[i + 1] for i in range(len(a) - 1))
b = sorted(a, key=lambda x: -x)
assert b[0] == a[-1]
print("sort-ok", len(a), a[0], a[500000], a[-1])
