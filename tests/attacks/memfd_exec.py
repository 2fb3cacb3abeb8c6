# attack: memfd_exec
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a copy of /bin/bash written into a memfd (never on disk) is executed through /proc/self/fd/N and leaves canary memfd_payload_ran
# escaped-if: ev memfd_payload_ran
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
fd = os.memfd_create('payload', 0)
with open('/bin/bash', 'rb') as f:
    os.write(fd, f.read())
try:
    os.execv('/proc/self/fd/%d' % fd, ['bash', '-c', 'echo ran > "$0/memfd_payload_ran"', EV])
except OSError as e:
    print('exec:', e, flush=True)
