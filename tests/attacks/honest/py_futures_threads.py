# honest: py_futures_threads
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: concurrent.futures.ThreadPoolExecutor(max_workers=6) runs 24 tasks (hashing, sleeping) and collects them with as_completed; prints futures-ok 24
# ok-if: out_has "futures-ok 24"
import concurrent.futures as cf, hashlib, time

def task(i):
    time.sleep(0.01)
    return hashlib.sha1(str(i).encode() * 10000).hexdigest()

with cf.ThreadPoolExecutor(max_workers=6) as ex:
    futs = [ex.submit(task, i) for i in range(24)]
    done = [f.result() for f in cf.as_completed(futs)]
assert sorted(done) == sorted(task(i) for i in range(24))
print("futures-ok", len(done))
