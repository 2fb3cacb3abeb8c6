#!/usr/bin/python3
"""listener: records connections for the attack suite (not part of sandlock).

    listener.py EV TOKEN

Listens on 127.0.0.1 TCP, ::1 TCP (if available), 127.0.0.1 UDP, a unix
socket EV/unix.sock and the abstract unix sockets @sandlock-TOKEN (stream)
and @sandlock-TOKEN-dgram. Anything that connects or sends leaves
EV/conn.KIND (with the first bytes received). Writes EV/listener.info
(key=value args for the attack) when ready. On SIGTERM it accepts whatever
is still queued, records it, and exits.
"""
import os, select, signal, socket, sys, time

EV, TOKEN = sys.argv[1], sys.argv[2]
socks = {}  # fileno -> (kind, sock, is_stream)
info = []


def add(kind, fam, typ, addr, infokey, infoval_fn):
    try:
        s = socket.socket(fam, typ)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(addr)
        if typ == socket.SOCK_STREAM:
            s.listen(64)
        s.setblocking(False)
        socks[s.fileno()] = (kind, s, typ == socket.SOCK_STREAM)
        info.append("%s=%s" % (infokey, infoval_fn(s)))
    except OSError as e:
        sys.stderr.write("listener: %s: %s\n" % (kind, e))


def record(kind, data):
    with open(os.path.join(EV, "conn." + kind), "ab") as f:
        f.write(b"[" + kind.encode() + b"]" + (data or b"") + b"\n")


add("tcp", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 0), "tcp", lambda s: s.getsockname()[1])
if socket.has_ipv6:
    add("tcp6", socket.AF_INET6, socket.SOCK_STREAM, ("::1", 0), "tcp6", lambda s: s.getsockname()[1])
add("udp", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0), "udp", lambda s: s.getsockname()[1])
upath = os.path.join(EV, "unix.sock")
add("unix", socket.AF_UNIX, socket.SOCK_STREAM, upath, "unix", lambda s: upath)
try:
    os.chmod(upath, 0o777)
except OSError:
    pass
add("abstract", socket.AF_UNIX, socket.SOCK_STREAM, "\0sandlock-" + TOKEN, "abstract", lambda s: "sandlock-" + TOKEN)
add("abstract_dgram", socket.AF_UNIX, socket.SOCK_DGRAM, "\0sandlock-" + TOKEN + "-dgram",
    "abstract_dgram", lambda s: "sandlock-" + TOKEN + "-dgram")


def poll_once(timeout):
    r, _, _ = select.select(list(socks), [], [], timeout)
    for fd in r:
        kind, s, stream = socks[fd]
        try:
            if stream:
                c, _ = s.accept()
                c.settimeout(0.2)
                try:
                    data = c.recv(4096)
                except OSError:
                    data = b""
                c.close()
                record(kind, data)
            else:
                data, _ = s.recvfrom(65536)
                record(kind, data)
        except (BlockingIOError, OSError):
            pass
    return bool(r)


stop = False


def on_term(sig, frm):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
tmp = os.path.join(EV, "listener.info.tmp")
with open(tmp, "w") as f:
    f.write(" ".join(info) + "\n")
os.rename(tmp, os.path.join(EV, "listener.info"))
deadline = time.time() + 120
while not stop and time.time() < deadline:
    try:
        poll_once(0.05)
    except InterruptedError:
        pass
# drain
while True:
    try:
        if not poll_once(0.05):
            break
    except InterruptedError:
        pass
