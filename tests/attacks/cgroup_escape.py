# attack: cgroup_escape
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# needs: root,cgroupfs
# evidence: a new cgroup /sys/fs/cgroup/pids/sandlock-TOKEN is created and the program moves itself into it (out of whatever cgroup limits it)
# escaped-if: test -d "/sys/fs/cgroup/pids/sandlock-$TOKEN"
# cleanup: rmdir "/sys/fs/cgroup/pids/sandlock-$TOKEN" 2>/dev/null
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
d = '/sys/fs/cgroup/pids/sandlock-' + A['token']
try:
    os.mkdir(d)
    with open(os.path.join(d, 'cgroup.procs'), 'w') as f:
        f.write(str(os.getpid()))
    print(open('/proc/self/cgroup').read(), flush=True)
except OSError as e:
    print('cgroup:', e, flush=True)
