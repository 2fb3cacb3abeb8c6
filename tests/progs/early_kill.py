#!/usr/bin/env python3
# SIGKILL the sandbox 0-3 ms after it starts, many times; count programs left running.
import os, random, signal, subprocess, sys, time
sandlock, n, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
extra = sys.argv[4:]
for i in range(n):
    p = subprocess.Popen([sandlock] + extra + ['--', '/bin/sleep', marker + '.%d' % i],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(random.uniform(0, 0.003))
    p.send_signal(signal.SIGKILL)
    p.wait()
time.sleep(0.5)
left = subprocess.run(['pgrep', '-f', 'sleep ' + marker], capture_output=True, text=True).stdout.split()
print(len(left))
for pid in left:
    try: os.kill(int(pid), signal.SIGKILL)
    except OSError: pass
