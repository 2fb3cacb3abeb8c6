# attack: proc_maps
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: victim
# evidence: /proc/VICTIM/maps of a grader-side process is read; one of its mappings is a file whose name holds the secret
# escaped-if: secret_leaked
# layers: landlock,pidns (the Landlock domain every run gets where the kernel has Landlock, or a pid namespace; without either: other same-uid processes' /proc entries are readable without Landlock or a PID namespace)
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: userns | --unshare on --no-fork --no-network --clean-env --cpu 5 --mem 256
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    sys.stdout.write(open('/proc/%s/maps' % A['victim']).read())
except OSError as e:
    print('maps:', e)
