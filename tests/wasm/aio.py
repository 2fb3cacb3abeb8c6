"""asyncio without sockets: timers, tasks, gather, a queue, locks, events,
timeouts, stdin read by add_reader; printed deterministically (the order
of timers is the order of their deadlines, whatever the load), so the
output is the same natively and under the WebAssembly backend."""
import asyncio
import sys


async def sleeper(name, delay, log):
    await asyncio.sleep(delay)
    log.append(name)
    return name.upper()


async def producer(q, n):
    for i in range(n):
        await q.put(i)
        await asyncio.sleep(0.001)
    await q.put(None)


async def consumer(q, got):
    while (item := await q.get()) is not None:
        got.append(item * item)
        q.task_done()
    q.task_done()


async def main():
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    log = []
    res = await asyncio.gather(sleeper("a", 0.06, log), sleeper("b", 0.02, log), sleeper("c", 0.04, log))
    print("gather", res, "finished in order", log, "waited", loop.time() - t0 >= 0.06)

    q = asyncio.Queue(maxsize=2)
    got = []
    await asyncio.gather(producer(q, 8), consumer(q, got))
    await q.join()
    print("queue", got)

    t1 = loop.time()
    try:
        await asyncio.wait_for(asyncio.sleep(10), timeout=0.05)
        print("wait_for: no timeout")
    except TimeoutError as e:
        print("wait_for", type(e).__name__, isinstance(e, asyncio.TimeoutError),
              "after", 0.05 <= loop.time() - t1 < 5)
    try:
        async with asyncio.timeout(0.02):
            await asyncio.sleep(10)
    except TimeoutError:
        print("timeout() raised TimeoutError")
    print("wait_for in time", await asyncio.wait_for(sleeper("d", 0.01, log), timeout=5))

    lock, order = asyncio.Lock(), []

    async def locked(i):
        async with lock:
            order.append(("in", i))
            await asyncio.sleep(0.005)
            order.append(("out", i))
    await asyncio.gather(*(locked(i) for i in range(3)))
    print("lock", order)

    ev, seen = asyncio.Event(), []

    async def waiter(i):
        await ev.wait()
        seen.append(i)
    ws = [asyncio.create_task(waiter(i)) for i in range(3)]
    await asyncio.sleep(0.01)
    print("event before set", seen)
    loop.call_later(0.01, ev.set)
    await asyncio.gather(*ws)
    print("event after set", seen)

    sem, active, peak = asyncio.Semaphore(2), [0], [0]

    async def limited():
        async with sem:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
            await asyncio.sleep(0.005)
            active[0] -= 1
    await asyncio.gather(*(limited() for _ in range(6)))
    print("semaphore peak", peak[0])

    t = asyncio.create_task(asyncio.sleep(10))
    await asyncio.sleep(0)
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        print("cancelled", t.cancelled())

    async with asyncio.TaskGroup() as tg:
        ts = [tg.create_task(sleeper(n, d, [])) for n, d in (("x", 0.02), ("y", 0.01))]
    print("taskgroup", [t.result() for t in ts])

    fut = loop.create_future()
    loop.call_soon(fut.set_result, "soon")
    print("call_soon", await fut)

    # stdin, read as the loop polls it
    lines, done = [], loop.create_future()

    def readable():
        line = sys.stdin.readline()
        if line:
            lines.append(line.strip())
        else:
            loop.remove_reader(0)
            done.set_result(None)
    loop.add_reader(0, readable)
    await done
    print("stdin by add_reader", lines)


asyncio.run(main())
loop = asyncio.new_event_loop()
print("new_event_loop", loop.run_until_complete(sleeper("e", 0.001, [])),
      isinstance(loop, asyncio.SelectorEventLoop))
loop.close()
