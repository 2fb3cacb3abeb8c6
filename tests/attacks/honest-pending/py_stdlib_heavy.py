# honest: py_stdlib_heavy
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a typical data-processing submission: builds 50000 JSON records, re-parses them, regex-extracts fields, counts with Counter/defaultdict, ranks with heapq/bisect/itertools; prints a deterministic digest (known value)
# ok-if: out_has "stdlib-ok 50000 3b6035876b"
import bisect
import collections
import hashlib
import heapq
import itertools
import json
import re

words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
recs = [{"id": i, "name": f"{words[i % 8]}-{i * 7919 % 10007}", "tags": words[i % 3: i % 3 + 3], "score": (i * 31) % 997}
        for i in range(50000)]
text = json.dumps(recs)
back = json.loads(text)
pat = re.compile(r"^(?P<w>[a-z]+)-(?P<n>\d+)$")
cnt = collections.Counter()
by = collections.defaultdict(list)
for r in back:
    m = pat.match(r["name"])
    cnt[m["w"]] += 1
    by[m["w"]].append(int(m["n"]))
    cnt.update(r["tags"])
top = heapq.nlargest(5, back, key=lambda r: (r["score"], r["id"]))
scores = sorted(r["score"] for r in back)
pos = bisect.bisect_left(scores, 500)
pairs = sum(1 for _ in itertools.combinations(words, 3))
acc = list(itertools.accumulate(sorted(by["beta"])[:10]))
found = len(re.findall(r'"score": 99\d', text))
blob = json.dumps([sorted(cnt.items()), [t["id"] for t in top], pos, pairs, acc, found], sort_keys=True)
print("stdlib-ok", len(back), hashlib.sha256(blob.encode()).hexdigest()[:10])
