#!/usr/bin/python3
"""Hold N idle processes on the host until standard input closes.

Usage: idle_procs.py N  (prints "ready" once all N exist)
What a busy grading node looks like to a run's start-up: processes that
do nothing.  Each child blocks on a pipe whose write end only the parent
holds, so all of them go when it does, however it ends.
"""
import os
import sys

n = int(sys.argv[1])
r, w = os.pipe()
for _ in range(n):
    if os.fork() == 0:
        os.close(w)
        os.read(r, 1)
        os._exit(0)
os.close(r)
print("ready", flush=True)
sys.stdin.read()
