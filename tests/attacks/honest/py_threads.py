# honest: py_threads
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: 4 Python threads each hash 2 MB and join; prints threads-ok 4
# ok-if: out_has "threads-ok 4"
import hashlib, sys, threading
res = []
def work(i):
    h = hashlib.sha256()
    for _ in range(64):
        h.update(bytes([i]) * 32768)
    res.append(h.hexdigest())
ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in ts: t.start()
for t in ts: t.join()
print("threads-ok", len(res))
