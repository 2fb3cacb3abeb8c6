# attack: shmem
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a SysV shared memory segment (key derived from TOKEN) is created, filled, and outlives the run (listed in /proc/sysvipc/shm afterwards)
# escaped-if: sysv_exists shm
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
# cleanup: sysv_remove shm
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
key = 0x5a000000 | int(A['token'][:6], 16)
r = libc.shmget(key, 4096, 0o1000 | 0o666)
print('shmget:', r, os.strerror(ctypes.get_errno()) if r < 0 else '')
if r >= 0:
    p = libc.shmat(r, None, 0)
    if p not in (None, ctypes.c_void_p(-1).value):
        ctypes.memmove(p, b'left for the next run', 21)
