"""bench/wasm.py's pure-Python workload: a 200,000-iteration loop of dict
get/set and string building, a Counter over 50,000 items, a JSON round trip
of a 1000-key dict and a regex over it."""
import collections
import json
import math
import re

d = {}
parts = []
for i in range(200000):
    k = i % 1000
    d[k] = d.get(k, 0) + i
    if i % 1000 == 0:
        parts.append(str(i))
s = ",".join(parts)
c = collections.Counter(i % 97 for i in range(50000))
blob = json.dumps({"key%d" % i: [i, math.sqrt(i), "v%d" % i] for i in range(1000)})
back = json.loads(blob)
found = re.findall(r'"key(\d*7)"', blob)
print(len(d), len(s), c.most_common(1)[0], len(back), len(found))
