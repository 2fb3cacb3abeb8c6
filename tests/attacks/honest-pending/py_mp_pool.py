# honest: py_mp_pool
# flags: --no-network --clean-env --cpu 5 --mem 256
# xfail: issue 14 (every multiprocessing lock/semaphore is a POSIX named semaphore: glibc sem_open creates /dev/shm/sem.XXXXXX and link()s it to its name; link is on the default block list, so Pool(4) is killed at start-up: verdict syscall_blocked, blocked link; multiprocessing.Lock() alone is enough, with or without --no-fork)
# evidence: multiprocessing.Pool(4) under the forking profile (fork start method, pipes, a POSIX semaphore) maps a function over 40 items in 4 worker processes; prints mp-ok with the sum and the number of distinct worker pids
# ok-if: out_has "mp-ok 20540 4"
import multiprocessing as mp
import os
import time


def work(x):
    time.sleep(0.01)
    return x * x, os.getpid()


if __name__ == "__main__":
    mp.set_start_method("fork")
    with mp.Pool(4) as pool:
        res = pool.map(work, range(40), chunksize=1)
    print("mp-ok", sum(r for r, _ in res), len({p for _, p in res}))
