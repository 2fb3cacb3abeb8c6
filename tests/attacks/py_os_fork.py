# attack: py_os_fork
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: os.fork() under --no-fork; the child leaves canary child_ran
# escaped-if: ev child_ran
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    pid = os.fork()
except Exception as e:
    print('fork:', e, flush=True)
    sys.exit(1)
if pid == 0:
    open(os.path.join(EV, 'child_ran'), 'w').write('fork\n')
    os._exit(0)
os.waitpid(pid, 0)
