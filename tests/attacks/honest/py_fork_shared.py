# honest: py_fork_shared
# flags: --no-network --clean-env --cpu 5 --mem 256
# evidence: 96 MB made before four fork()s, which the children only read (copy on write: held once, shown in each child's resident size); their resident sizes add up to ~480 MB, their proportional shares to ~100 MB, under --mem 256; each child sums its quarter, the parent prints fork-shared-ok 4 and the total.  In a container as root (no CAP_SYS_PTRACE) the supervisor read the shares (smaps_rollup) as root, was refused, and counted each resident size whole: memory_limit (2026-12-07)
# ok-if: out_has "fork-shared-ok 4 $((96 << 20))"
import os, time

big = bytearray(b"\1") * (96 << 20)
kids = []
for k in range(4):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        time.sleep(0.6)  # held together, past a few samples
        part = len(big) // 4
        os.write(w, str(sum(big[k * part:(k + 1) * part])).encode())
        os._exit(0)
    os.close(w)
    kids.append((pid, r))
total = 0
for pid, r in kids:
    total += int(os.read(r, 64) or b"0")
    os.waitpid(pid, 0)
print("fork-shared-ok", len(kids), total)
