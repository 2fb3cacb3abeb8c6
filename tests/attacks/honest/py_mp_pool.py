# honest: py_mp_pool
# flags: --no-network --clean-env --cpu 5 --mem 256
# layers: mountns (its semaphores are files in /dev/shm: a private one in a mount namespace, which also brings the pid namespace Pool.terminate() needs to signal its workers; a default container has none: there, as root with --uid-pool, the default allow-list opens the shared /dev/shm to a run of its own uid, counted and swept (src/shm.c; tests/neighbours.py); runs of one uid find it closed, named in missing)
# evidence: multiprocessing.Pool(4) maps a CPU-bound function over 16 inputs (forking profile: 4 workers + the parent's 3 pool threads fit the default --nproc 10); prints pool-ok with the sum
# ok-if: out_has "pool-ok 4 $((16 * 1000000 * 999999 / 2 + 1000000 * (0+1+2+3+4+5+6+7+8+9+10+11+12+13+14+15)))"
import multiprocessing as mp, os

def work(k):
    return sum(k + i for i in range(1000000)), os.getpid()

if __name__ == "__main__":
    with mp.Pool(4) as p:
        res = p.map(work, range(16))
    print("pool-ok", len({pid for _, pid in res}), sum(s for s, _ in res))
