# honest: py_big_dict
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a memoisation-heavy submission builds a dict of 400000 int -> tuple entries (about 100 MB resident, under --mem 256), then looks every key up; prints bigdict-ok with the entry count and its peak resident MB (checked to be >= 80)
# ok-if: out_has "bigdict-ok 400000" && [ "$(sed -n 's/^bigdict-ok 400000 rss_mb \([0-9]*\).*/\1/p' "$OUT")" -ge 80 ]
import resource

d = {}
for i in range(400000):
    d[i * 3] = (i, str(i), i * 0.5)
s = 0
for i in range(400000):
    s += d[i * 3][0]
assert s == 400000 * 399999 // 2
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print("bigdict-ok", len(d), "rss_mb", rss)
