# attack: hardlink_create
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: link(2) creates a hard link EV/hardlink to a file the program made (EV/orig)
# escaped-if: test -e "$EV/hardlink"
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
p = os.path.join(EV, 'orig')
open(p, 'w').write('x')
try:
    os.link(p, os.path.join(EV, 'hardlink'))
except OSError as e:
    print('link:', e)
