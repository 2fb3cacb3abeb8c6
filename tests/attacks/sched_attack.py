# attack: sched_attack
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: a grader-side process is starved: its policy set to SCHED_IDLE (sched_setscheduler) and nice to 19 (setpriority); the runner reads both from /proc/VICTIM/stat
# escaped-if: victim_sched_changed
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
v = int(A['victim'])
try:
    os.sched_setscheduler(v, os.SCHED_IDLE, os.sched_param(0))
except OSError as e:
    print('sched_setscheduler:', e, flush=True)
try:
    os.setpriority(os.PRIO_PROCESS, v, 19)
except OSError as e:
    print('setpriority:', e, flush=True)
