# honest: py_asyncio
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 | network-allowed
# evidence: an async exercise: asyncio.run() gathers 10 coroutines that sleep and exchange items over an asyncio.Queue; prints asyncio-ok with the sum
# ok-if: out_has "asyncio-ok 45"
import asyncio


async def producer(q, i):
    await asyncio.sleep(0.01 * i)
    await q.put(i)


async def main():
    q = asyncio.Queue()
    await asyncio.gather(*(producer(q, i) for i in range(10)))
    return sum([q.get_nowait() for _ in range(10)])


print("asyncio-ok", asyncio.run(main()))
