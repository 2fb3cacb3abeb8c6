# attack: semaphore
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a SysV semaphore set (key derived from TOKEN) is created and outlives the run (listed in /proc/sysvipc/sem afterwards)
# escaped-if: sysv_exists sem
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
# cleanup: sysv_remove sem
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
key = 0x5a000000 | int(A['token'][:6], 16)
r = libc.semget(key, 1, 0o1000 | 0o666)
print('semget:', r, os.strerror(ctypes.get_errno()) if r < 0 else '')
