# attack: subprocess_exec
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: Python subprocess.run() starts /bin/sh under --no-fork; the child leaves canary child_ran
# escaped-if: ev child_ran
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import subprocess
try:
    subprocess.run(['/bin/sh', '-c', 'echo subprocess > "$0/child_ran"', EV], timeout=5)
except Exception as e:
    print('subprocess:', e, flush=True)
