# attack: setpgid_escape
# flags: --no-network --clean-env --cpu 5 --mem 256 --nproc 50
# settle: 0.3
# evidence: fork allowed: a child moves to its own process group with setpgid(0, 0), forks a grandchild that holds alive.lock, and exits; the grandchild must not outlive the run
# escaped-if: survivor
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import fcntl, signal, time
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    try:
        os.setpgid(0, 0)
    except OSError as e:
        print('setpgid:', e, flush=True)
    if os.fork() == 0:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        fd = os.open(os.path.join(EV, 'alive.lock'), os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_SH)
        os.write(w, b'r')
        time.sleep(8)
        os._exit(0)
    os._exit(0)
os.close(w)
os.waitpid(pid, 0)
os.read(r, 1)
