# attack: proc_mem_write
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: a word in a grader-side process's memory is overwritten through /proc/VICTIM/mem (the victim notices and writes victim.mem_modified)
# escaped-if: ev victim.mem_modified
# layers: landlock,pidns (the Landlock domain every run gets where the kernel has Landlock, or a pid namespace; without either: same-uid /proc/PID/mem is reachable without Landlock or a PID namespace)
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import time
try:
    with open('/proc/%s/mem' % A['victim'], 'r+b', buffering=0) as f:
        f.seek(int(A['victim_flag'], 0))
        f.write(b'\x01\x02\x03\x04')
    time.sleep(0.1)
except OSError as e:
    print('mem:', e)
