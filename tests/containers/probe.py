#!/usr/bin/python3
"""What the container's seccomp profile lets a process do, by the errno of
each call (0 = it worked), one "name=ERRNO" per line.  Run by inside.sh
outside the sandbox: it tells the shipped profile from the runtime's
default and from no filter at all.  Each call runs in a child of its own,
so a namespace it makes dies with it.
"""
import ctypes
import errno
import os

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_clone, SYS_unshare, SYS_setns, SYS_clone3, SYS_mount = 56, 272, 308, 435, 165  # x86_64
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWCGROUP = 0x20000, 0x10000000, 0x02000000
CLONE_FILES = 0x400
CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWUTS = 0x20000000, 0x08000000, 0x40000000, 0x04000000
RUN_NS = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS


def errno_of(call):
    pid = os.fork()
    if pid == 0:
        r = call()
        os._exit(0 if r == 0 else (ctypes.get_errno() or 255))
    _, st = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(st)


def clone(flags):
    def call():
        # the raw call (no new stack: the child runs on a copy of ours)
        r = libc.syscall(ctypes.c_long(SYS_clone), ctypes.c_long(flags | 17), None, None, None, None)
        if r == 0:
            os._exit(0)
        if r < 0:
            return r
        os.waitpid(r, 0)
        return 0
    return call


def sc(*args):
    return lambda: libc.syscall(*[ctypes.c_long(a) if isinstance(a, int) else a for a in args])


os.makedirs("/tmp/probe-mnt", exist_ok=True)
probes = [
    # Sandlock's: a user namespace of the run's own, the descriptor table
    ("clone_run_ns", clone(RUN_NS)),
    ("unshare_user", sc(SYS_unshare, CLONE_NEWUSER)),
    ("unshare_files", sc(SYS_unshare, CLONE_FILES)),
    # not Sandlock's: the shipped profile keeps refusing them
    ("clone_user_cgroup", clone(CLONE_NEWUSER | CLONE_NEWCGROUP)),
    ("unshare_user_mnt", sc(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS)),
    ("unshare_user_cgroup", sc(SYS_unshare, CLONE_NEWUSER | CLONE_NEWCGROUP)),
    ("setns", sc(SYS_setns, -1, 0)),
    ("clone3", sc(SYS_clone3, None, 0)),
    # mount is allowed by the profile, but the kernel still refuses it on
    # the container's own mounts (no CAP_SYS_ADMIN over them)
    ("mount_container_tmp", sc(SYS_mount, b"tmpfs", b"/tmp/probe-mnt", b"tmpfs", 0, None)),
]
for name, call in probes:
    e = errno_of(call)
    print("%s=%s" % (name, errno.errorcode.get(e, e) if e else 0))
os.rmdir("/tmp/probe-mnt")
