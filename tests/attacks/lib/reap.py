#!/usr/bin/python3
"""reap.py RUN [INODE]: kill what a test run left behind (test code).

A process belongs to the run when its command line, executable, working
directory or any open file points into the run's private directory RUN, or
when it holds the flock on the file with inode INODE (RUN/ev/alive.lock).
Processes are identified exactly and killed by pid, repeatedly, until none
is left. Prints the number of processes killed.
"""
import os, signal, sys, time

run = sys.argv[1].rstrip("/")
ino = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
mine = {os.getpid(), os.getppid()}
runb = run.encode()


def belongs(pid):
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            if runb in f.read():
                return True
    except OSError:
        return False
    for l in ("exe", "cwd"):
        try:
            t = os.readlink("/proc/%s/%s" % (pid, l))
            if t == run or t.startswith(run + "/"):
                return True
        except OSError:
            pass
    try:
        for fd in os.listdir("/proc/%s/fd" % pid):
            try:
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)).startswith(run + "/"):
                    return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def lock_holders():
    out = set()
    if not ino:
        return out
    try:
        for line in open("/proc/locks"):
            f = line.replace("->", " ").split()
            if len(f) >= 6 and f[5].split(":")[-1] == ino:
                out.add(int(f[4]))
    except OSError:
        pass
    return out


killed = set()
for _ in range(40):
    pids = {int(d) for d in os.listdir("/proc") if d.isdigit() and int(d) not in mine and belongs(d)}
    pids |= lock_holders() - mine
    pids = {p for p in pids if p > 1}
    if not pids:
        break
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
            killed.add(p)
        except OSError:
            pass
    time.sleep(0.05)
print(len(killed))
