# attack: wall_bomb
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --timeout 1
# bare-timeout: 3
# evidence: sleeps (no CPU) for 30 s; contained = --timeout 1 ends the run well before 2.8 s by the launcher's clock
# exclusive: yes
# escaped-if: [ "$(st wall_ms)" -ge 2800 ]
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import time
time.sleep(30)
