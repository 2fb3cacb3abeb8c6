# attack: kill_py
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: os.kill(VICTIM, SIGUSR1) from Python; the victim records the signal or dies
# escaped-if: victim_hit
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import signal, time
try:
    os.kill(int(A['victim']), signal.SIGUSR1)
except OSError as e:
    print('kill:', e, flush=True)
time.sleep(0.1)
