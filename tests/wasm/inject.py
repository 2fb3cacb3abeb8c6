"""What a WebAssembly escape could do next, done from outside (a helper of
tests/wasm.py, not a suite): a process stopped by ptrace is made to run
system calls of ours, as if the guest had taken over the WASI host's
native code.  They go through the process's own seccomp filter and
Landlock domain (the kernel checks the tracee, not the tracer), so what
they get is what such an escape would get.  x86_64 only."""
import ctypes
import os
import platform

PTRACE_PEEKDATA, PTRACE_POKEDATA = 2, 5
PTRACE_SINGLESTEP, PTRACE_GETREGS, PTRACE_SETREGS, PTRACE_DETACH = 9, 12, 13, 17
PTRACE_SEIZE, PTRACE_INTERRUPT = 0x4206, 0x4207
SYS_read, SYS_close, SYS_openat = 0, 3, 257
AT_FDCWD = -100
__WALL = 0x40000000

_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.restype = ctypes.c_long
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in (
        "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags "
        "rsp ss fs_base gs_base ds es fs gs").split()]


class Gone(Exception):
    """the tracee died of what it was made to do (a filter's kill)"""


def supported():
    return platform.machine() == "x86_64"


def _pt(req, pid, addr=0, data=0):
    ctypes.set_errno(0)
    r = _libc.ptrace(req, pid, ctypes.c_void_p(addr), ctypes.c_void_p(data))
    e = ctypes.get_errno()
    if r == -1 and e:
        raise OSError(e, f"ptrace({req}): {os.strerror(e)}")
    return r


def _wait(pid):
    _, st = os.waitpid(pid, __WALL)
    if os.WIFEXITED(st) or os.WIFSIGNALED(st):
        raise Gone(f"signal {os.WTERMSIG(st)}" if os.WIFSIGNALED(st) else f"exit {os.WEXITSTATUS(st)}")
    return st


def _regs(pid):
    r = Regs()
    _pt(PTRACE_GETREGS, pid, 0, ctypes.addressof(r))
    return r


def _poke(pid, addr, data):
    data += b"\0" * (-len(data) % 8)
    for i in range(0, len(data), 8):
        _pt(PTRACE_POKEDATA, pid, addr + i, int.from_bytes(data[i:i + 8], "little"))


def _peek(pid, addr, n):
    out = b""
    for i in range(0, n, 8):
        out += (_pt(PTRACE_PEEKDATA, pid, addr + i) & (2**64 - 1)).to_bytes(8, "little")
    return out[:n]


def read_file_as(pid, path, n=64):
    """pid (a process that is not our child: seized, not waited for by its
    parent's wait) opens path and reads n bytes of it, by system calls of
    its own.  Returns (bytes read or None, what happened: "read", "openat:
    -ERRNO", or the tracee's death); the process is left running, with its
    registers as they were, unless it died."""
    _pt(PTRACE_SEIZE, pid)
    try:
        _pt(PTRACE_INTERRUPT, pid)
        _wait(pid)
        saved = _regs(pid)
        # stopped in a system call (the guest sleeps): the instruction
        # before rip is `syscall` (0f 05), ours to run again
        at = saved.rip - 2
        if _peek(pid, at, 2) != b"\x0f\x05":
            return None, "not stopped at a system call"
        # scratch memory below the stack's red zone
        buf = (saved.rsp - 4096) & ~15
        _poke(pid, buf, path.encode() + b"\0")

        def call(nr, *args):
            r = Regs.from_buffer_copy(saved)
            r.rip, r.rax, r.orig_rax = at, nr, 2**64 - 1  # no restart of the interrupted call
            for name, v in zip(("rdi", "rsi", "rdx", "r10"), args):
                setattr(r, name, v & (2**64 - 1))
            _pt(PTRACE_SETREGS, pid, 0, ctypes.addressof(r))
            _pt(PTRACE_SINGLESTEP, pid)
            _wait(pid)
            v = _regs(pid).rax
            return v - 2**64 if v >= 2**63 else v

        try:
            fd = call(SYS_openat, AT_FDCWD, buf, os.O_RDONLY)
            if fd < 0:
                return None, f"openat: -{os.strerror(-fd)}"
            got = call(SYS_read, fd, buf + 1024, n)
            call(SYS_close, fd)
            data = _peek(pid, buf + 1024, got) if got > 0 else b""
            return data, f"read {got}"
        finally:
            try:
                _pt(PTRACE_SETREGS, pid, 0, ctypes.addressof(saved))
            except OSError:
                pass  # it died of a call
    except Gone as e:
        return None, f"died: {e}"
    finally:
        try:
            _pt(PTRACE_DETACH, pid)
        except OSError:
            pass
