# honest: py_dict_100mb
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a memoization table: a dict of 400000 str -> tuple entries (well over 100 MB resident) under --mem 256; prints dict-ok and the launcher's ru_maxrss must exceed 100 MB
# ok-if: out_has "dict-ok 400000" && [ "$(st maxrss_kb)" -gt 102400 ]
d = {}
for i in range(400000):
    d["key-%08d" % i] = (i, i * i, str(i))
s = sum(v[0] for v in d.values())
assert s == 399999 * 400000 // 2 and d["key-00000042"][2] == "42"
print("dict-ok", len(d))
