# attack: py_posix_spawn
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: os.posix_spawn(/bin/sh) under --no-fork; the child leaves canary child_ran
# escaped-if: ev child_ran
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    pid = os.posix_spawn('/bin/sh', ['sh', '-c', 'echo spawn > "$0/child_ran"', EV], {})
    os.waitpid(pid, 0)
except Exception as e:
    print('posix_spawn:', e, flush=True)
