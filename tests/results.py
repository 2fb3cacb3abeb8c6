"""The lines the Python suites print: PASS/FAIL [host]/SKIP per check, and a
last line "NAME: P passed, F failed, S skipped" that tests/run-all.sh and
tests/hosts.sh add up."""
import sys


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

    def finish(self, suite):
        c = self.counts
        print(f"{suite}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
        return 1 if c["failed"] else 0
