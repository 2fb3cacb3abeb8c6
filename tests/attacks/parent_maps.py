# attack: parent_maps
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: /proc/PPID/maps of the supervisor (bare: the launcher) is read: lines mapping the supervisor's own executable appear in the output
# escaped-if: grep -Eq ' r-xp .*/(launch|sandlock|sandbox_exec)$' "$OUT"
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    sys.stdout.write(open('/proc/%d/maps' % os.getppid()).read())
except OSError as e:
    print('maps:', e)
