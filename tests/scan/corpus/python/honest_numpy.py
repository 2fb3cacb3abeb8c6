# expect: clean
"""An honest submission: numpy, math, sorting, input, threads.

Traps: os.system("rm -rf /"), __import__('os'), eval(input()) inside
this docstring, and in comments and strings below."""
import math
import os.path
import re
import sys
import threading

import numpy as np

# subprocess.run(["ls"]); socket.socket(); exec(code); getattr(x, name)
system_total = 0
socket_count = 0
asm_len = 3
table = [0x0f, 0x01, 0x05]
pattern = re.compile(r"exec\((.*)\)")


def execute_query(q):
    return "result of " + q


class Parser:
    def compile(self, text):
        return text.split()

    def eval(self, tokens):
        return len(tokens)


def main():
    data = [float(x) for x in sys.stdin.read().split()] or [1.0, 2.0, 3.0]
    arr = np.array(sorted(data))
    results = []
    t = threading.Thread(target=lambda: results.append(float(arr.mean())))
    t.start()
    t.join()
    p = Parser()
    path = os.path.join("out", "x.txt")
    msg = 'os.system("id") is only text here; so is __import__("subprocess")'
    print(f"{math.sqrt(arr.sum()):.3f} {results[0]!r} {p.eval(p.compile('a b'))} {path}")
    print(msg, system_total, socket_count, asm_len, table, execute_query("q"), pattern.pattern)
    print({"system": 1, "eval": 2}["system"], getattr(arr, "shape"))


if __name__ == "__main__":
    main()
