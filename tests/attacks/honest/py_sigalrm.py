# honest: py_sigalrm
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a submission enforces its own time budget: signal.setitimer(ITIMER_REAL, 0.2) with a SIGALRM handler that interrupts a busy loop, then signal.alarm(1) interrupting a blocking time.sleep(5); prints alarm-ok 2 when both handlers ran and the timing is right
# ok-if: out_has "alarm-ok 2"
import signal
import time


class Budget(Exception):
    pass


def handler(signum, frame):
    raise Budget()


signal.signal(signal.SIGALRM, handler)
hits = 0
t0 = time.monotonic()
signal.setitimer(signal.ITIMER_REAL, 0.2)
try:
    while True:
        pass
except Budget:
    hits += 0.1 <= time.monotonic() - t0 < 2
t0 = time.monotonic()
signal.alarm(1)
try:
    time.sleep(5)
except Budget:
    hits += 0.8 <= time.monotonic() - t0 < 3
print("alarm-ok", hits)
