# attack: oom_trigger
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: a grader-side process is made the OOM killer's first choice (1000 written to /proc/VICTIM/oom_score_adj; the runner reads it back)
# escaped-if: [ "$(cat /proc/$VPID/oom_score_adj 2>/dev/null)" = 1000 ]
# xfail: by design without the layer of its variants (same-uid /proc/PID files are writable without Landlock or a PID namespace)
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    with open('/proc/%s/oom_score_adj' % A['victim'], 'w') as f:
        f.write('1000')
except OSError as e:
    print('oom_score_adj:', e)
