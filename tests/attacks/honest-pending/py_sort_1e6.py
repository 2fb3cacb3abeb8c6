# honest: py_sort_1e6
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: sorts 10^6 pseudo-random ints (fixed seed) with sorted() and list.sort(key=...), verifies the order; prints sort-ok with min, max and checksums of the input and the sorted list (known values)
# ok-if: out_has "sort-ok -999993674 999996328 397048 155556"
import random

r = random.Random(12345)
a = [r.randrange(-10**9, 10**9) for _ in range(10**6)]
sample = sum(a[::1000]) % 1000003
b = sorted(a)
assert all(b[i] <= b[i + 1] for i in range(len(b) - 1))
a.sort(key=lambda x: -x)
assert a == b[::-1]
print("sort-ok", b[0], b[-1], sample, sum(b[::1000]) % 1000003)
