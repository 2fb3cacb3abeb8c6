"""The lines the Python suites print: PASS/FAIL [host]/SKIP per check, and a
last line "NAME: P passed, F failed, S skipped" that tests/run-all.sh and
tests/hosts.sh add up; the listener their network escapes aim at; wait_for,
for events with a deadline."""
import json
import socket
import sys
import threading
import time


class Results:
    def __init__(self, host):
        self.host = host
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}

    def __call__(self, ok, name, why=""):
        """ok None: skipped (why says why); True: passed; False: failed"""
        if ok is None:
            self.counts["skipped"] += 1
            print(f"SKIP {name}: {why}")
        elif ok:
            self.counts["passed"] += 1
            print(f"PASS {name}")
        else:
            self.counts["failed"] += 1
            print(f"FAIL [{self.host}] {name}: {why}")
        sys.stdout.flush()

    def relay(self, lines, prefix):
        """Report again, under prefix, the PASS/FAIL/SKIP lines of a run of
        a suite in another setting (a mount namespace, a simulated host);
        True if any check passed or failed there."""
        ran = False
        for ln in lines:
            for kind, ok in (("PASS ", True), ("FAIL ", False), ("SKIP ", None)):
                if ln.startswith(kind):
                    text = ln[len(kind):]
                    if text.startswith("["):
                        text = text.split("] ", 1)[-1]
                    name, _, why = text.partition(": ") if ok is not True else (text, "", "")
                    self(ok, "%s: %s" % (prefix, name), why)
                    ran = ran or ok is not None
        return ran

    def finish(self, suite):
        c = self.counts
        print(f"{suite}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
        return 1 if c["failed"] else 0


def read_report(path):
    """A run's --report file, or {} where it wrote none (or half of one)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


class Listener:
    """A TCP listener of ours on 127.0.0.1: counts the connections the
    kernel accepted, the evidence of a network escape."""
    def __init__(self):
        self.s = socket.socket()
        self.s.bind(("127.0.0.1", 0))
        self.s.listen(16)
        self.port = self.s.getsockname()[1]
        self.count = 0
        threading.Thread(target=self.loop, daemon=True).start()

    @property
    def accepted(self):
        return self.count

    def loop(self):
        while True:
            try:
                c, _ = self.s.accept()
            except OSError:
                return
            self.count += 1
            c.close()

    def close(self):
        self.s.close()


def wait_for(cond, secs=20):
    """True as soon as cond() is, False at the deadline: for events (a
    connection taken, a process started, a survivor gone), where a fixed
    sleep is too short on a loaded machine and too long elsewhere."""
    end = time.monotonic() + secs
    while not cond():
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)
    return True
