#!/usr/bin/python3
"""probe.py - what this process may do, by trying (for tests/hosts/selftest.sh).

Prints one line per call: NAME OK or NAME ERRNO-NAME.  Each call is made in
a form that changes nothing the caller keeps (in a forked child where it
would), so the same probe runs under every simulated host.
"""
import ctypes
import errno
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = {"unshare": 272, "clone": 56, "clone3": 435, "close_range": 436, "pidfd_open": 434,
      "landlock_create_ruleset": 444, "seccomp": 317, "prctl": 157, "ptrace": 101,
      "mount": 165, "setns": 308}


def sys_call(name, *args):
    r = libc.syscall(NR[name], *[ctypes.c_long(a) for a in args])
    return "OK" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def in_child(fn):
    """run fn in a forked child; its answer comes back through a pipe"""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = fn()
        except Exception as e:  # noqa: BLE001
            out = "EXC-" + type(e).__name__
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    out = os.read(r, 100).decode()
    os.waitpid(pid, 0)
    return out


def allow_all(flags):
    """install a one-instruction allow-all filter (changes nothing else)"""
    class SockFilter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                    ("k", ctypes.c_uint)]

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]
    ins = (SockFilter * 1)(SockFilter(0x06, 0, 0, 0x7fff0000))  # RET ALLOW
    prog = SockFprog(1, ins)
    libc.prctl(38, 1, 0, 0, 0)  # no_new_privs, if the host allows it (child only)
    r = libc.syscall(NR["seccomp"], ctypes.c_long(1), ctypes.c_long(flags), ctypes.byref(prog))
    return "OK" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")


def clone_flags(flags):
    """clone(flags) in a child; the grandchild exits at once"""
    def go():
        pidfd = ctypes.c_int(-1)  # CLONE_PIDFD stores it here
        r = libc.syscall(NR["clone"], ctypes.c_long(flags | 17), ctypes.c_long(0),
                         ctypes.c_void_p(ctypes.addressof(pidfd)), ctypes.c_long(0), ctypes.c_long(0))
        if r == 0:
            os._exit(0)
        if r < 0:
            return errno.errorcode.get(ctypes.get_errno(), "?")
        os.waitpid(r, 0)
        return "OK"
    return in_child(go)


def userns_then(call):
    """in a new user namespace (if it can be made), try call"""
    def go():
        if libc.syscall(NR["unshare"], ctypes.c_long(0x10000000)) != 0:
            return "NOUSERNS"
        return call()
    return in_child(go)


def mount_tmpfs():
    if libc.syscall(NR["unshare"], ctypes.c_long(0x20000)) != 0:  # a mount namespace
        return errno.errorcode.get(ctypes.get_errno(), "?")
    r = libc.mount(b"none", b"/tmp", b"tmpfs", ctypes.c_ulong(0), None)
    return "OK" if r == 0 else errno.errorcode.get(ctypes.get_errno(), "?")


nsize = (ctypes.c_ushort * 3)()
probes = {
    "unshare_user": lambda: in_child(lambda: sys_call("unshare", 0x10000000)),
    "unshare_files": lambda: in_child(lambda: sys_call("unshare", 0x400)),
    "clone_newuser": lambda: clone_flags(0x10000000),
    "clone_newuser_newpid": lambda: clone_flags(0x10000000 | 0x20000000),
    "clone_pidfd": lambda: clone_flags(0x1000),
    "clone3": lambda: sys_call("clone3", 0, 0),
    "close_range": lambda: sys_call("close_range", 0xFFFFFFFF, 0xFFFFFFFF, 0),
    "pidfd_open": lambda: sys_call("pidfd_open", os.getpid(), 0),
    "landlock": lambda: sys_call("landlock_create_ruleset", 0, 0, 1),
    "filter": lambda: in_child(lambda: allow_all(0)),
    "filter_listener": lambda: in_child(lambda: allow_all(1 << 3)),
    "notif_sizes": lambda: "OK" if libc.syscall(NR["seccomp"], ctypes.c_long(3), ctypes.c_long(0),
                                                ctypes.byref(nsize)) == 0
    else errno.errorcode.get(ctypes.get_errno(), "?"),
    "pdeathsig": lambda: in_child(lambda: sys_call("prctl", 1, 9, 0, 0, 0)),
    "no_new_privs": lambda: in_child(lambda: sys_call("prctl", 38, 1, 0, 0, 0)),
    "ptrace_traceme": lambda: in_child(lambda: sys_call("ptrace", 0, 0, 0, 0)),
    "userns_mount": lambda: userns_then(mount_tmpfs),
    "userns_unshare_mnt": lambda: userns_then(lambda: sys_call("unshare", 0x20000)),
}
for name in sys.argv[1:] or probes:
    print(name, probes[name]())
