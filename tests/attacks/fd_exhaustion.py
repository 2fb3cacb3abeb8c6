# attack: fd_exhaustion
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --nofile 100
# evidence: keeps opening new files EV/fd/N (each open creates one, all kept open) up to 3000; contained = no more files than --nofile 100
# escaped-if: [ "$(ls "$EV/fd" | wc -l)" -gt 100 ]
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
d = os.path.join(EV, 'fd')
fds = []
for i in range(3000):
    try:
        fds.append(os.open(os.path.join(d, str(i)), os.O_CREAT | os.O_WRONLY, 0o644))
    except OSError as e:
        print('stopped at', i, e)
        break
