# sandlock --guard python: run a Python program under a PEP 578 audit hook.
# sandlock executes: PY -I -c <this text> PYOPTS... (SCRIPT|-c CODE|-m MOD|-) ARGS...
# with the policy in SANDLOCK_GUARD_POLICY (see docs/guard-python.md).
# One file over 800 lines on purpose: it is run as `python -I -c <this text>`
# before the program, so it cannot import a sibling module of ours.
# Audit hooks are not a security boundary: this is a best-effort layer for hosts
# where the kernel gives nothing better.  Standard library only.
#
# Rules this file keeps, and why:
# - the hook and its helpers read nothing from globals, builtins or closures:
#   every name they use is a positional default (a tuple the program cannot
#   change without an audited __defaults__ assignment), so a program that
#   reaches the guard's globals through frames changes nothing;
# - no original of an unaudited dangerous function is kept anywhere (frames,
#   defaults): those are deleted from their modules and re-creating a builtin
#   module returns the patched one.
import sys
import posix
import _imp
import _io

_USAGE = "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"


def _die(msg, status):
    sys.stderr.write(msg)
    sys.stderr.flush()
    posix._exit(status)


def _parse_argv(argv):
    """Python's own command line, the part a student's command may carry."""
    opts = {"u": False, "O": 0, "P": False, "W": [], "X": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-" or not a.startswith("-"):
            return opts, ("stdin" if a == "-" else "file"), a, argv[i + 1:]
        if a == "--":
            if i + 1 < len(argv):
                nxt = argv[i + 1]
                return opts, ("stdin" if nxt == "-" else "file"), nxt, argv[i + 2:]
            return opts, "stdin", "-", []
        if a.startswith("--"):
            if a == "--version":
                print("Python %d.%d.%d" % sys.version_info[:3])
                posix._exit(0)
            if a == "--help":
                sys.stdout.write(_USAGE % sys.executable)
                sys.stdout.flush()
                posix._exit(0)
            if a == "--check-hash-based-pycs":
                i += 2
                continue
            _die("unknown option %s\n" % a + _USAGE % sys.executable
                 + "Try `python -h' for more information.\n", 2)
        j = 1
        while j < len(a):
            ch = a[j]
            if ch in "cmWX":
                val = a[j + 1:]
                if not val:
                    i += 1
                    if i >= len(argv):
                        _die("Argument expected for the -%s option\n" % ch + _USAGE % sys.executable
                             + "Try `python -h' for more information.\n", 2)
                    val = argv[i]
                if ch == "c":
                    return opts, "c", val, argv[i + 1:]
                if ch == "m":
                    return opts, "m", val, argv[i + 1:]
                opts[ch].append(val)
                break
            if ch == "O":
                opts["O"] += 1
            elif ch == "u":
                opts["u"] = True
            elif ch in "PI":
                opts["P"] = True
            elif ch == "V":
                print("Python %d.%d.%d" % sys.version_info[:3])
                posix._exit(0)
            elif ch in "h?":
                sys.stdout.write(_USAGE % sys.executable)
                sys.stdout.flush()
                posix._exit(0)
            elif ch == "i":
                _die("sandlock guard: -i (interactive) is not supported\n", 2)
            elif ch not in "BEsSbqdvR":
                _die("Unknown option: -%s\n" % ch + _USAGE % sys.executable
                     + "Try `python -h' for more information.\n", 2)
            j += 1
        i += 1
    return opts, "stdin", "-", []


def _read_policy():
    raw = posix.environ.pop(b"SANDLOCK_GUARD_POLICY", None)
    try:
        import os
        os.environ.pop("SANDLOCK_GUARD_POLICY", None)
    except Exception:
        pass
    if raw is None:
        _die("sandlock guard: no policy (SANDLOCK_GUARD_POLICY is not set)\n", 125)
    rules, flags = [], {"net": 0, "fork": 0, "exec": 0}
    for line in raw.decode("utf-8", "surrogateescape").split("\n"):
        key, _, val = line.strip().partition(" ")
        val = val.strip()
        if key in ("r", "w") and val.startswith("/"):
            while len(val) > 1 and val.endswith("/"):
                val = val[:-1]
            rules.append((val, 2 if key == "w" else 1))
        elif key in flags:
            flags[key] = 1 if val == "1" else 0
    best = {}
    for path, level in rules:
        best[path] = max(level, best.get(path, 0))
    ordered = tuple(sorted(best.items(), key=lambda pl: -len(pl[0])))
    return ordered, flags["net"], flags["fork"], flags["exec"]


# ---------------------------------------------------------------- the checks
# Levels: 0 refused, 1 read, 2 write.

def _h_level(path, rules, _len=len):
    for prefix, level in rules:
        if path == prefix or prefix == "/" or path[:_len(prefix) + 1] == prefix + "/":
            return level
    return 0


def _h_resolve(path, base, nofollow, getpid,
               _lstat=posix.lstat, _readlink=posix.readlink, _OSError=OSError,
               _reversed=reversed, _len=len, _list=list):
    """The path the kernel would reach: (canonical str, own_pseudo) or (None, _)
    when it cannot be known.  /proc/<own pid> is written /proc/self."""
    if path[:1] == "/":
        cur = ""
    else:
        cur = "" if base == "/" else base
    stack = _list(_reversed(path.split("/")))
    links = 0
    while stack:
        c = stack.pop()
        if c == "" or c == ".":
            continue
        if c == "..":
            cur = cur[:cur.rfind("/")] if cur else ""
            continue
        nxt = cur + "/" + c
        if nofollow and not stack:
            cur = nxt
            break
        try:
            mode = _lstat(nxt).st_mode
        except _OSError:
            cur = nxt
            continue
        if mode & 0o170000 != 0o120000:
            cur = nxt
            continue
        links += 1
        if links > 40:
            return None, False
        try:
            target = _readlink(nxt)
        except _OSError:
            cur = nxt
            continue
        parts = nxt.split("/")
        if _len(parts) > 3 and parts[1] == "proc" and parts[2].isdigit():
            # A magic link: the kernel jumps to the object itself, readlink
            # only names it.  Not a path at all: a pipe, socket, anon inode.
            if target[:1] != "/":
                own = parts[2] == "%d" % getpid()
                return nxt, own
            cur = "" if target == "/" else target
            continue
        if target[:1] == "/":
            cur = ""
        stack.extend(_reversed(target.split("/")))
    cur = cur or "/"
    own = "/proc/%d" % getpid()
    if cur == own or cur[:_len(own) + 1] == own + "/":
        cur = "/proc/self" + cur[_len(own):]
    return cur, False


def _h_text(p, fsenc, _type=type, _str=str, _bytes=bytes, _int=int, _strstr=str.__str__,
            _index=int.__index__, isinstance=isinstance):
    """An exact str path, an exact int fd, or None (an object whose text we
    cannot trust: its __fspath__ may answer us differently than it answered C)."""
    t = _type(p)
    if t is _str:
        return p
    if t is _bytes:
        return p.decode(fsenc, "surrogateescape")
    if t is _int:
        return p
    if isinstance(p, _str):
        return _strstr(p)
    if isinstance(p, _bytes):
        return b"".join((p,)).decode(fsenc, "surrogateescape")
    if isinstance(p, _int):
        return _index(p)
    return None


def _h_fdpath(fd, _readlink=posix.readlink, _OSError=OSError):
    try:
        return _readlink("/proc/self/fd/%d" % fd)
    except _OSError:
        return None


def _h_judge(p, need, base_fd, nofollow, ctx,
             _text=_h_text, _resolve=_h_resolve, _level=_h_level, _fdpath=_h_fdpath,
             _type=type, _int=int, _len=len):
    """None when allowed, else the refusal text."""
    rules, fsenc, getpid, getcwd, dirfds, _, use_dirfds = ctx
    if p is None:
        p = "."
    t = _text(p, fsenc)
    if t is None:
        return "%s (a path object the guard cannot read reliably; pass a str)" % _type(p).__name__
    if _type(t) is _int:
        if 0 <= t <= 2:
            return None
        target = _fdpath(t)
        if target is None or target[:1] != "/" or target[:7] == "/memfd:":
            return None
        t = target
    bases = None
    if t[:1] != "/":
        if base_fd is not None:
            b = _fdpath(_text(base_fd, fsenc))
            if b is None or b[:1] != "/":
                return "%r (relative to an unknown directory descriptor)" % t
            bases = (b,)
        elif use_dirfds:
            bases = (getcwd(),) + dirfds()
        else:
            bases = (getcwd(),)
    else:
        bases = ("/",)
    for base in bases:
        modes = (True, False) if nofollow is None else (nofollow,)
        for nf in modes:
            real, own = _resolve(t, base, nf, getpid)
            if real is None:
                return "%r (too many symbolic links)" % t
            if own:
                continue
            parts = real.split("/")
            if _len(parts) > 3 and parts[1] == "proc" and parts[-1] in ("environ", "mem") \
                    and (parts[2] == "self" or parts[2].isdigit()):
                return "%r (process environment or memory)" % t
            if _level(real, rules) < need:
                return "%r" % t if real == t else "%r (resolved to %r)" % (t, real)
    return None



_FDDIR = "/proc/self/fd"


def _h_dirfds(_listdir=posix.listdir, _readlink=posix.readlink, _stat=posix.stat,
              _OSError=OSError, _FD=_FDDIR, _tuple=tuple):
    """Every directory this process holds open: os.open(rel, dir_fd=N) raises
    an "open" event without its dir_fd, so a relative path must be allowed
    relative to each of them."""
    out = []
    try:
        names = _listdir(_FD)
    except _OSError:
        return ()
    for n in names:
        p = _FD + "/" + n
        try:
            t = _readlink(p)
            if t[:1] == "/" and _stat(p).st_mode & 0o170000 == 0o040000:
                out.append(t)
        except _OSError:
            pass
    return _tuple(out)


def _h_refuse(what, exc, _write=posix.write, Exception=Exception, ImportError=ImportError):
    msg = "sandlock guard: refused " + what
    try:
        _write(2, (msg + "\n").encode("utf-8", "backslashreplace"))
    except Exception:
        pass
    if exc is ImportError:
        raise ImportError(msg)
    raise exc(13, msg)


_FILE_EVENTS = frozenset((
    "open", "os.listdir", "os.scandir", "os.chdir", "os.mkdir", "os.rmdir", "os.remove",
    "os.rename", "os.link", "os.symlink", "os.chmod", "os.chown", "os.utime", "os.truncate",
    "os.setxattr", "os.removexattr", "os.getxattr", "os.listxattr"))
_PROC_EVENTS = frozenset((
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "pty.spawn",
    "os.fork", "os.forkpty", "os.startfile", "webbrowser.open"))
_NET_EVENTS = frozenset((
    "socket.__new__", "socket.bind", "socket.connect", "socket.sendto", "socket.sendmsg",
    "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.getnameinfo",
    "socket.getservbyname", "socket.getservbyport", "socket.sethostname",
    "http.client.connect", "ftplib.connect", "smtplib.connect", "nntplib.connect",
    "imaplib.open", "poplib.connect", "telnetlib.Telnet.open", "urllib.Request"))
_ALWAYS_REFUSED = frozenset((
    "sys.addaudithook", "sys.settrace", "sys.setprofile", "sys._current_frames",
    "sys._current_exceptions", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "code.__new__", "sqlite3.enable_load_extension", "sqlite3.load_extension",
    "ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.call_function",
    "ctypes.cdata", "ctypes.cdata/buffer", "ctypes.addressof", "ctypes.string_at",
    "ctypes.wstring_at", "ctypes.PyObj_FromPtr", "ctypes.get_errno", "ctypes.set_errno",
    "ctypes.create_string_buffer", "ctypes.create_unicode_buffer", "ctypes.call_function"))
# Native modules that hand out raw memory, foreign calls, a hook-free
# interpreter or an unaudited fork+exec.
_NATIVE_REFUSED = frozenset((
    "_ctypes", "_cffi_backend", "_testcapi", "_testinternalcapi", "_testbuffer",
    "_testmultiphase", "_testsinglephase", "_testimportmultiple", "_testclinic",
    "_xxsubinterpreters", "_xxinterpchannels", "_xxinterpqueues", "_interpreters",
    "_interpchannels", "_interpqueues", "xxlimited", "xxlimited_35", "_xxtestfuzz",
    "xxsubtype", "_posixsubprocess", "posix", "_signal", "_imp"))
_FLAG_WRITE = posix.O_WRONLY | posix.O_RDWR | posix.O_CREAT | posix.O_TRUNC | posix.O_APPEND \
    | getattr(posix, "O_TMPFILE", 0)
_EVENTS = _FILE_EVENTS | _PROC_EVENTS | _NET_EVENTS | _ALWAYS_REFUSED | frozenset((
    "import", "marshal.loads", "marshal.load", "object.__setattr__", "object.__delattr__",
    "os.kill", "os.killpg", "resource.prlimit", "fcntl.ioctl", "mmap.__new__",
    "cpython._PySys_ClearAuditHooks"))


def _h_marshal_ok(f, ctx, trusted,
                  _type=type, _str=str, _judge=_h_judge, _level=_h_level, _Exc=Exception):
    """marshal.loads builds code objects, which can be crafted to corrupt
    memory: allowed only for importlib reading a .pyc the program cannot write."""
    (cb, getcodes, classes, getdata, io_mod, open_code, fileio, bext) = trusted
    try:
        if f is None or f.f_code is not cb:
            return False
        f2 = f.f_back
        if f2 is None or f2.f_code not in getcodes:
            return False
        loc = f2.f_locals
        self = loc.get("self")
        if _type(self) not in classes or _type(self).get_data is not getdata \
                or "get_data" in self.__dict__:
            return False
        if bext._io is not io_mod or io_mod.open_code is not open_code or io_mod.FileIO is not fileio:
            return False
        path = loc.get("bytecode_path", loc.get("path"))
        if _type(path) is not _str or path[:1] != "/":
            return False
        parts = path.split("/")
        if "." in parts or ".." in parts:
            return False
        # Nothing on the way to the file may be writable (a symbolic link
        # there could be switched between the read and this check), and
        # the file itself must be readable but not writable.
        rules = ctx[0]
        prefix = ""
        for c in parts[1:]:
            prefix = prefix + "/" + c
            if _level(prefix, rules) >= 2:
                return False
        return _judge(path, 1, None, False, ctx) is None and \
            _judge(path, 2, None, False, ctx) is not None
    except _Exc:
        return False


def _h_descendant(pid, me, _open=_io.open, _Exc=Exception, range=range, int=int):
    try:
        for _ in range(64):
            with _open("/proc/%d/stat" % pid, "rb") as f:
                data = f.read()
            ppid = int(data[data.rfind(b")") + 2:].split()[1])
            if ppid == me:
                return True
            if ppid <= 1:
                return False
            pid = ppid
    except _Exc:
        pass
    return False


def _h_hook(ev, args, _E=_EVENTS, _F=_FILE_EVENTS, _P=_PROC_EVENTS, _N=_NET_EVENTS,
            _A=_ALWAYS_REFUSED, _NR=_NATIVE_REFUSED, _WF=_FLAG_WRITE,
            _judge=_h_judge, _refuse=_h_refuse, _marshal_ok=_h_marshal_ok,
            _descendant=_h_descendant, _text=_h_text,
            _PE=PermissionError, _IE=ImportError, _type=type, _str=str, _int=int,
            _getframe=sys._getframe, _exit=posix._exit, _getpid=posix.getpid,
            _getpgrp=posix.getpgrp, _FD=_FDDIR, _resolve=_h_resolve, _len=len,
            CTX=None, NET=0, FORK=0, EXEC=0, TRUSTED_DIRS=(), MARSHAL=None, PROT=()):
    if ev not in _E:
        return
    if ev in _F:
        if ev == "open":
            p, mode, flags = args
            if p is _FD:
                return
            if _type(flags) is _int:
                need = 2 if flags & _WF else 1
            else:
                need = 2 if mode and ("w" in mode or "a" in mode or "x" in mode or "+" in mode) else 1
            why = _judge(p, need, None, False, CTX + (True,))
            if why is None and need == 1:
                t = _text(p, CTX[1])
                if _type(t) is _str and t[-4:] == ".pyc" and \
                        _judge(p, 2, None, False, CTX + (True,)) is None:
                    why = "%r (bytecode in a writable place)" % t
            if why is not None:
                _refuse("open of " + why + (" for writing" if need == 2 else ""), _PE)
            return
        if ev == "os.listdir" or ev == "os.scandir":
            if args[0] is _FD:
                return
            why = _judge(args[0], 1, None, False, CTX + (False,))
        elif ev == "os.chdir" or ev == "os.getxattr" or ev == "os.listxattr":
            why = _judge(args[0], 1, None, None, CTX + (False,))
        elif ev == "os.rename" or ev == "os.link":
            src_nf = True if ev == "os.rename" else None
            why = _judge(args[0], 2, args[2], src_nf, CTX + (False,)) or \
                _judge(args[1], 2, args[3], True, CTX + (False,))
        elif ev == "os.symlink":
            why = _judge(args[1], 2, args[2], True, CTX + (False,))
        elif ev == "os.mkdir":
            why = _judge(args[0], 2, args[2], True, CTX + (False,))
        elif ev == "os.rmdir" or ev == "os.remove":
            why = _judge(args[0], 2, args[1], True, CTX + (False,))
        elif ev == "os.truncate":
            why = _judge(args[0], 2, None, False, CTX + (False,))
        elif ev == "os.setxattr" or ev == "os.removexattr":
            why = _judge(args[0], 2, None, None, CTX + (False,))
        else:  # chmod, chown, utime: dir_fd is the last argument
            why = _judge(args[0], 2, args[-1], None, CTX + (False,))
        if why is not None:
            _refuse(ev + " of " + why, _PE)
        return
    if ev in _P:
        fork_needed = ev not in ("os.exec",)
        exec_needed = ev not in ("os.fork", "os.forkpty")
        if (fork_needed and not FORK) or (exec_needed and not EXEC):
            _refuse(ev + " (%s)" % ("no new processes" if fork_needed and not FORK else "no exec"), _PE)
        return
    if ev in _N:
        if NET:
            return
        if ev == "socket.__new__" and args[1] == 1:
            return  # AF_UNIX, as socketpair() makes; connect/bind/sendto stay refused
        _refuse(ev + " (no network)", _PE)
    if ev in _A:
        _refuse(ev, _PE)
    if ev == "import":
        name = args[0]
        short = name.rpartition(".")[2] if _type(name) is _str else ""
        if short in _NR or name in _NR:
            if args[1] is None and short in ("_posixsubprocess", "posix", "_signal", "_imp"):
                return  # already loaded and patched; sys.modules answers
            _refuse("import of native module %s" % name, _IE)
        path = args[1]
        if path is None:
            return
        why = _judge(path, 1, None, False, CTX + (False,))
        if why is not None:
            _refuse("import of native module %s from %s" % (name, why), _IE)
        t = _text(path, CTX[1])
        real = _resolve(t, CTX[3](), False, CTX[2])[0] if _type(t) is _str else None
        for d in TRUSTED_DIRS:
            if real is not None and real[:_len(d) + 1] == d + "/":
                return
        _refuse("import of native module %s from %r (not in the interpreter's own directories)"
                % (name, path), _IE)
    if ev == "marshal.loads" or ev == "marshal.load":
        if not _marshal_ok(_getframe(1), CTX + (False,), MARSHAL):
            _refuse(ev + " of data that is not the interpreter's own bytecode", _PE)
        return
    if ev == "object.__setattr__" or ev == "object.__delattr__":
        obj = args[0]
        for p in PROT:
            if obj is p:
                _refuse(ev + " on the guard", _PE)
        if args[1] == "__code__":
            _refuse(ev + " of a function's __code__", _PE)
        return
    if ev == "os.kill":
        pid = args[0]
        me = _getpid()
        if pid == me or (FORK and pid > 0 and _descendant(pid, me)):
            return
        _refuse("os.kill of process %r" % (pid,), _PE)
    if ev == "os.killpg":
        if args[0] == _getpgrp():
            return
        _refuse("os.killpg of group %r" % (args[0],), _PE)
    if ev == "resource.prlimit":
        if args[0] in (0, _getpid()):
            return
        _refuse("resource.prlimit of process %r" % (args[0],), _PE)
    if ev == "fcntl.ioctl":
        if args[1] == 0x5412:  # TIOCSTI: typing into the terminal's input
            _refuse("ioctl TIOCSTI", _PE)
        return
    if ev == "mmap.__new__":
        if args[0] != -1:
            why = _judge(args[0], 1, None, False, CTX + (False,))
            if why is not None:
                _refuse("mmap of " + why, _PE)
        return
    if ev == "cpython._PySys_ClearAuditHooks":
        # The guard's runner always leaves through _exit; reaching the
        # interpreter's teardown means something bypassed it, and what runs
        # after this point would run with no hook at all.
        _exit(1)


# ----------------------------------------------------------------- the setup

def _refusing(name):
    def refused(*args, **kwargs):
        raise PermissionError(13, "sandlock guard: refused %s" % name)
    refused.__name__ = name
    return refused


def _import_all(mods):
    for name in sys.builtin_module_names:
        if name in ("sys", "builtins"):
            mods[name] = sys.modules[name]
            continue
        try:
            mods[name] = __import__(name)
        except ImportError:
            pass


def _seal_builtins(fork, exec_):
    """Pre-import every builtin module, remove the unaudited dangerous
    functions, and make re-creating a builtin module answer the patched one
    (re-creation would otherwise hand back fresh originals)."""
    import os
    import signal
    import _signal
    import warnings
    mods = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _import_all(mods)
    try:
        import _posixsubprocess
        mods["_posixsubprocess"] = _posixsubprocess
    except ImportError:
        _posixsubprocess = None
    refused = []
    if _posixsubprocess is not None and not (fork and exec_):
        refused.append((_posixsubprocess, "fork_exec"))
    for n in ("mkfifo", "mknod", "chroot", "setsid", "setpgid", "setpgrp", "pidfd_open"):
        refused += [(posix, n), (os, n)]
    for n in ("pidfd_send_signal",):
        refused += [(_signal, n), (signal, n)]
    for mod, n in refused:
        if hasattr(mod, n):
            setattr(mod, n, _refusing(mod.__name__ + "." + n))
    frozen = __import__("types").MappingProxyType(dict(mods))

    def create_builtin(spec, _mods=frozen, _IE=ImportError):
        try:
            return _mods[spec.name]
        except KeyError:
            raise _IE("sandlock guard: refused creating builtin module %r" % (spec.name,))
    _imp.create_builtin = create_builtin
    return create_builtin


def _path_wrappers():
    """The hook only trusts exact str/bytes/int paths (a path object's
    __fspath__ could answer C and the hook differently), so the usual entry
    points turn path objects into str once, before C sees them."""
    import builtins
    import io
    import os
    fspath = os.fspath

    def wrap(orig, positions, keywords):
        def wrapper(*args, **kwargs):
            if positions:
                args = list(args)
                for i in positions:
                    if i < len(args) and not isinstance(args[i], (str, bytes, int)):
                        args[i] = fspath(args[i])
            for k in keywords:
                if k in kwargs and not isinstance(kwargs[k], (str, bytes, int)):
                    kwargs[k] = fspath(kwargs[k])
            return orig(*args, **kwargs)
        wrapper.__name__ = getattr(orig, "__name__", "wrapper")
        wrapper.__qualname__ = wrapper.__name__
        wrapper.__doc__ = getattr(orig, "__doc__", None)
        wrapper.__wrapped__ = orig
        return wrapper
    opener = wrap(io.open, (0,), ("file",))
    builtins.open = io.open = opener
    one = ("open", "listdir", "scandir", "chdir", "mkdir", "rmdir", "remove", "unlink", "chmod",
           "chown", "lchown", "utime", "truncate", "setxattr", "removexattr", "getxattr",
           "listxattr", "lchmod")
    for n in one:
        if hasattr(os, n):
            setattr(os, n, wrap(getattr(os, n), (0,), ("path",)))
    for n in ("rename", "replace", "link", "symlink"):
        setattr(os, n, wrap(getattr(os, n), (0, 1), ("src", "dst")))


def _trusted_dirs(rules, realpath):
    out = []
    for d in sys.path:
        if d and d.startswith("/") and posix.access(d, posix.F_OK):
            r = realpath(d)
            if _h_level(r, rules) == 1:
                out.append(r)
    return tuple(out)


def _install(rules, net, fork, exec_):
    import os
    import os.path
    import importlib._bootstrap_external as bext
    realpath = os.path.realpath
    create_builtin = _seal_builtins(fork, exec_)
    fsenc = sys.getfilesystemencoding()
    ctx = (rules, fsenc, posix.getpid, posix.getcwd, _h_dirfds, None)
    marshal_ctx = (bext._compile_bytecode.__code__,
                   (bext.SourceLoader.get_code.__code__, bext.SourcelessFileLoader.get_code.__code__),
                   (bext.SourceFileLoader, bext.SourcelessFileLoader),
                   bext.FileLoader.get_data, _io, _io.open_code, _io.FileIO, bext)
    helpers = (_h_level, _h_resolve, _h_text, _h_fdpath, _h_judge, _h_dirfds, _h_refuse,
               _h_marshal_ok, _h_descendant, create_builtin)
    d = list(_h_hook.__defaults__)
    names = _h_hook.__code__.co_varnames[2:_h_hook.__code__.co_argcount]
    vals = {"CTX": ctx, "NET": net, "FORK": fork, "EXEC": exec_,
            "TRUSTED_DIRS": _trusted_dirs(rules, realpath), "MARSHAL": marshal_ctx}
    for k, v in vals.items():
        d[names.index(k)] = v
    d[names.index("PROT")] = (_h_hook,) + helpers
    _h_hook.__defaults__ = tuple(d)
    sys.dont_write_bytecode = True
    _path_wrappers()
    sys.addaudithook(_h_hook)


# ---------------------------------------------------------------- the runner

def _apply_options(opts):
    import io
    if opts["u"]:
        for name in ("stdout", "stderr"):
            old = getattr(sys, name)
            old.flush()
            new = io.TextIOWrapper(io.FileIO(old.fileno(), "w", closefd=False),
                                   encoding=old.encoding, errors=old.errors, write_through=True)
            setattr(sys, name, new)
            setattr(sys, "__%s__" % name, new)
    for w in opts["W"]:
        sys.warnoptions.append(w)
    if opts["W"]:
        import warnings
        warnings._processoptions(opts["W"])
    for x in opts["X"]:
        k, eq, v = x.partition("=")
        sys._xoptions[k] = v if eq else True
        if k in ("faulthandler", "dev"):
            import faulthandler
            faulthandler.enable()
        if k == "dev":
            import warnings
            warnings.simplefilter("default")
        if k == "int_max_str_digits" and v.isdigit():
            sys.set_int_max_str_digits(int(v))
        if k == "tracemalloc":
            import tracemalloc
            tracemalloc.start()


def _fresh_main(**attrs):
    mod = type(sys)("__main__")
    mod.__dict__.update(attrs)
    mod.__builtins__ = __builtins__
    sys.modules["__main__"] = mod
    return mod


def _run(kind, target, args, opts, source):
    if kind == "m":
        sys.argv = ["-m"] + args
        if not opts["P"]:
            sys.path.insert(0, posix.getcwd())
        import runpy
        runpy._run_module_as_main(target, alter_argv=True)
        return None
    if kind == "c":
        sys.argv = ["-c"] + args
        if not opts["P"]:
            sys.path.insert(0, "")
        code = compile(target, "<string>", "exec", optimize=opts["O"] or -1, dont_inherit=True)
        mod = _fresh_main(__file__=None, __loader__=None, __spec__=None, __cached__=None)
        del mod.__file__
        exec(code, mod.__dict__)
        return mod
    if kind == "stdin":
        sys.argv = ["-"] + args
        if not opts["P"]:
            sys.path.insert(0, "")
        code = compile(sys.stdin.buffer.read(), "<stdin>", "exec",
                       optimize=opts["O"] or -1, dont_inherit=True)
        mod = _fresh_main(__loader__=None, __spec__=None, __cached__=None)
        exec(code, mod.__dict__)
        return mod
    sys.argv = [target] + args
    if not opts["P"]:
        sys.path.insert(0, posix.getcwd() if not target.count("/") else
                        __import__("os").path.realpath(target.rpartition("/")[0] or "/"))
    if source is None:
        import runpy
        runpy.run_path(target, run_name="__main__")
        return None
    # Python names the main script by its absolute path (not resolving links)
    path = target if target[:1] == "/" else posix.getcwd() + "/" + target
    code = compile(source, path, "exec", optimize=opts["O"] or -1, dont_inherit=True)
    mod = _fresh_main(__file__=path, __loader__=None, __spec__=None, __cached__=None)
    exec(code, mod.__dict__)
    return mod


def _finish(status, mod):
    """Python's own shutdown up to the point where it would drop the audit
    hooks (threads joined, atexit, the main module's objects finalized), then
    leave before the hooks are gone."""
    try:
        t = sys.modules.get("threading")
        if t is not None:
            t._shutdown()
    except BaseException:
        pass
    try:
        __import__("atexit")._run_exitfuncs()
    except BaseException:
        pass
    if mod is not None:
        try:
            g = mod.__dict__
            for name in [n for n in g if n.startswith("_") and n != "__builtins__"] + \
                    [n for n in g if not n.startswith("_")]:
                g[name] = None
            __import__("gc").collect()
        except BaseException:
            pass
    for f in (sys.stdout, sys.stderr):
        try:
            if f is not None and not f.closed:
                f.flush()
        except BaseException:
            if status == 0:
                status = 120
    posix._exit(status)


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xff
    try:
        sys.stderr.write(str(code) + "\n")
    except BaseException:
        pass
    return 1


def _preimport(kind, target, source):
    """numpy rewrites code objects while it imports (code.replace and
    __code__ assignment, both refused to programs): when the program names
    it, the host's numpy is imported before the hook, as host code."""
    texts = [source or b""]
    if kind in ("c", "m"):
        texts.append(target.encode("utf-8", "surrogateescape"))
    elif kind == "file":
        d = target.rpartition("/")[0] or "."
        try:
            for n in sorted(posix.listdir(d))[:200]:
                if n.endswith(".py"):
                    with open(d + "/" + n, "rb") as f:
                        texts.append(f.read(1 << 20))
        except OSError:
            pass
    if any(b"numpy" in t for t in texts):
        try:
            import numpy  # noqa: F401
        except Exception:
            pass


def _main():
    opts, kind, target, args = _parse_argv(sys.argv[1:])
    rules, net, fork, exec_ = _read_policy()
    source = None
    if kind == "file":
        try:
            with open(target, "rb") as f:
                source = f.read()
        except IsADirectoryError:
            source = None
        except OSError as e:
            _die("%s: can't open file %r: [Errno %d] %s\n"
                 % (sys.executable, target, e.errno, e.strerror), 2)
        if source is not None and source[:4] == b"PK\x03\x04":
            source = None
    _preimport(kind, target, source)
    _install(rules, net, fork, exec_)
    return opts, kind, target, args, source


_opts, _kind, _target, _args, _source = _main()
del _main, _install, _seal_builtins, _read_policy
_apply_options(_opts)
_mod = None
try:
    _mod = _run(_kind, _target, _args, _opts, _source)
    _status = 0
except SystemExit as _e:
    _status = _exit_status(_e.code)
except BaseException as _e:
    _tb = _e.__traceback__
    for _ in range(2):
        _tb = _tb.tb_next if _tb is not None else None
    _e.__traceback__ = _tb
    _status = 1
    try:
        sys.excepthook(type(_e), _e, _tb)
    except BaseException:
        pass
    if isinstance(_e, KeyboardInterrupt):
        for _f in (sys.stdout, sys.stderr):
            try:
                _f.flush()
            except BaseException:
                pass
        import _signal
        _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
        posix.kill(posix.getpid(), _signal.SIGINT)
    del _e
_finish(_status, _mod)
