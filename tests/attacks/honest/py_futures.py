# honest: py_futures
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: concurrent.futures.ThreadPoolExecutor(max_workers=4) hashes 16 chunks (hashlib releases the GIL) and a as_completed loop collects them; prints futures-ok 16 with the combined digest the runner recomputes
# ok-if: out_has "futures-ok 16 $(/usr/bin/python3 -c 'import hashlib; print(hashlib.sha256(b"".join(hashlib.sha256(bytes([i]) * 1000000).digest() for i in range(16))).hexdigest())')"
import concurrent.futures as cf
import hashlib


def work(i):
    return i, hashlib.sha256(bytes([i]) * 1000000).digest()


with cf.ThreadPoolExecutor(max_workers=4) as ex:
    futs = [ex.submit(work, i) for i in range(16)]
    res = dict(f.result() for f in cf.as_completed(futs))
print("futures-ok", len(res), hashlib.sha256(b"".join(res[i] for i in range(16))).hexdigest())
