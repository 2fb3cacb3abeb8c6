"""What a pure-Python submission does, printed deterministically: the same
output natively and under the WebAssembly backend."""
import asyncio
import collections
import dataclasses
import decimal
import fractions
import functools
import heapq
import itertools
import json
import math
import re
import statistics
import string
import sys


@dataclasses.dataclass(order=True)
class Item:
    weight: int
    name: str = dataclasses.field(compare=False)


def main():
    words = re.findall(r"[a-z]+", "the quick brown fox jumps over the lazy dog the end".lower())
    c = collections.Counter(words)
    print("counter", sorted(c.items()))
    d = collections.defaultdict(list)
    for w in words:
        d[len(w)].append(w)
    print("defaultdict", dict(sorted(d.items())))
    print("deque", list(collections.deque(range(10), maxlen=4)))
    data = {"a": [1, 2.5, None, True], "b": {"c": "é✓"}, "n": 10 ** 20}
    s = json.dumps(data, sort_keys=True)
    print("json", s, json.loads(s) == data)
    print("math", math.factorial(30), math.gcd(2 ** 40, 6 ** 20), round(math.pi * 1e6), math.isqrt(10 ** 30))
    print("floats", repr(0.1 + 0.2), repr(1e300 * 10), repr(math.sqrt(2)), f"{math.e:.15f}")
    decimal.getcontext().prec = 40
    print("decimal", decimal.Decimal(1) / decimal.Decimal(7), decimal.Decimal("2").sqrt())
    print("fraction", sum(fractions.Fraction(1, n) for n in range(1, 20)))
    xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    print("statistics", statistics.mean(xs), statistics.median(xs), statistics.mode(xs),
          round(statistics.stdev(xs), 12))
    items = sorted([Item(3, "c"), Item(1, "a"), Item(2, "b")])
    print("dataclasses", [i.name for i in items], dataclasses.asdict(items[0]))
    print("heapq", heapq.nsmallest(3, xs), list(itertools.accumulate(xs)))
    print("itertools", list(itertools.permutations("abc", 2))[:4])

    @functools.lru_cache(maxsize=None)
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)
    print("fib", fib(200))
    print("re", re.sub(r"(\w+)@(\w+)\.com", r"\2:\1", "mail bob@example.com and eve@corp.com"))
    print("string", string.capwords("hello wasm world"), "%05.1f|%-6s|%x" % (3.14159, "ab", 255))

    # asyncio's event loop (tools/wasm/py/wasi_events.py under WASI)
    async def worker(name, n, out):
        for i in range(n):
            out.append((name, i))
            await asyncio.sleep(0)

    async def both(out):
        await asyncio.gather(worker("a", 3, out), worker("b", 2, out))
    out = []
    asyncio.run(both(out))
    print("coroutines", out)
    total = 0
    for i in range(200000):
        total += i * i % 7
    print("loop", total)
    print("argv", sys.argv[1:])


main()
