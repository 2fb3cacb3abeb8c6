# honest: py_imports
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: imports json, re, hashlib, threading, collections, itertools, math, random, decimal from the standard library and uses them
# ok-if: out_has "imports-ok"
import collections, decimal, hashlib, itertools, json, math, random, re, threading
d = json.loads(json.dumps({"a": [1, 2, 3]}))
assert re.match(r"\w+", "abc") and hashlib.md5(b"x").hexdigest()
assert math.isclose(sum(d["a"]), 6) and collections.Counter("aab")["a"] == 2
print("imports-ok", decimal.Decimal("1.1") + decimal.Decimal("2.2"))
