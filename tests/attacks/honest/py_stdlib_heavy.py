# honest: py_stdlib_heavy
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a log-analysis style task: builds 50000 JSON records, re-parses them, extracts fields with re, aggregates with collections (Counter, defaultdict, deque, heapq); prints a deterministic summary the runner checks
# ok-if: out_has "stdlib-ok 50000 top=user5:7143 groups=13 tail=49999 sum=1249975000"
import collections, heapq, json, re
lines = [json.dumps({"id": i, "msg": "user%d logged in from 10.0.%d.%d" % (i % 7, i % 13, i % 256)}) for i in range(50000)]
recs = [json.loads(l) for l in lines]
pat = re.compile(r"^(user\d+) logged in from 10\.0\.(\d+)\.(\d+)$")
users = collections.Counter()
groups = collections.defaultdict(list)
last = collections.deque(maxlen=3)
for r in recs:
    m = pat.match(r["msg"])
    users[m.group(1)] += 1
    groups[m.group(2)].append(r["id"])
    last.append(r["id"])
top = heapq.nlargest(1, users.items(), key=lambda kv: (kv[1], kv[0]))[0]
print("stdlib-ok %d top=%s:%d groups=%d tail=%d sum=%d" % (
    len(recs), top[0], top[1],
    len(groups), last[-1], sum(sum(v) for v in groups.values())))
