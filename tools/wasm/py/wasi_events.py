"""asyncio's event loop for CPython on WASI (sandlock's --runtime wasm).

Installed as asyncio/wasi_events.py by tools/wasm/stdlib.sh, which also
makes asyncio/__init__.py import it on WASI, so that asyncio.run(),
asyncio.new_event_loop() and asyncio.SelectorEventLoop give this loop.

asyncio's selector loop wakes itself through a socket pair (its "self
pipe"), which a WASI guest cannot make: every socket call fails there.
The self pipe only serves wake-ups from other threads and from signal
handlers, and a WASI guest has neither, so this loop goes without it.
Its selector waits for the next timer by sleeping (poll_oneoff on the
clock); descriptors added by add_reader/add_writer are polled as the
selector loop polls them (select.poll, which WASI has).  What needs a
socket (open_connection, start_server, sock_*) or a process
(create_subprocess_exec) fails with the guest's OSError (ENOTSUP);
add_signal_handler raises NotImplementedError, as on Windows; what needs
a thread (run_in_executor, to_thread) fails with RuntimeError("can't start
new thread"), and the loop still closes.
"""

import selectors
import time

from . import unix_events

__all__ = ('SelectorEventLoop', 'DefaultEventLoopPolicy')


class _Selector(selectors.PollSelector):
    """poll() for the descriptors registered; else a sleep until the timeout.

    poll_oneoff, under poll(), refuses a wait on nothing (no descriptor and
    no timeout): with no descriptor and no timeout, nothing can ever wake
    the loop (no thread, no signal), and it waits as a native loop would,
    until the run's wall-clock limit.
    """

    def select(self, timeout=None):
        if self._fd_to_key:
            return super().select(timeout)
        if timeout is None:
            while True:
                time.sleep(3600)
        if timeout > 0:
            time.sleep(timeout)
        return []


class WasiSelectorEventLoop(unix_events.SelectorEventLoop):
    """The Unix selector loop without its self pipe."""

    def __init__(self, selector=None):
        super().__init__(_Selector() if selector is None else selector)

    def _make_self_pipe(self):
        pass

    def _close_self_pipe(self):
        pass

    def _write_to_self(self):
        # the selector never waits past the next timer and nothing runs
        # beside the loop (no threads, no signals): no wake-up is needed
        pass

    def add_signal_handler(self, sig, callback, *args):
        raise NotImplementedError("asyncio on WASI: no signals")

    def remove_signal_handler(self, sig):
        raise NotImplementedError("asyncio on WASI: no signals")

    async def shutdown_default_executor(self):
        # the base loop joins the executor from a new thread; there is no
        # thread to join (none can start), so the executor is shut here
        self._executor_shutdown_called = True
        if self._default_executor is not None:
            self._default_executor.shutdown(wait=True)


class WasiEventLoopPolicy(unix_events.DefaultEventLoopPolicy):
    _loop_factory = WasiSelectorEventLoop


SelectorEventLoop = WasiSelectorEventLoop
DefaultEventLoopPolicy = WasiEventLoopPolicy
