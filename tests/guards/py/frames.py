"""Escape: sys._getframe/f_back/f_globals up to the guard's globals; swap
its functions' defaults and code, add a hook, trace; then write outside."""
import sys
done = []
f = sys._getframe()
while f is not None:
    g = f.f_globals
    for name, v in list(g.items()):
        if callable(v) and getattr(v, "__defaults__", None) and name.startswith("_h_"):
            try:
                v.__defaults__ = tuple(None for _ in v.__defaults__)
                done.append("defaults " + name)
            except Exception as e:
                print("refused", name, type(e).__name__)
            try:
                v.__code__ = (lambda *a, **k: None).__code__
                done.append("code " + name)
            except Exception as e:
                print("refused code", name, type(e).__name__)
    f = f.f_back
seen = []
try:
    # CPython silently drops the new hook when an existing one objects
    sys.addaudithook(lambda ev, args: seen.append(ev))
    compile("1", "x", "exec")
    if seen:
        done.append("addaudithook")
except Exception as e:
    print("refused addaudithook", type(e).__name__)
for name, attempt in (("settrace", lambda: sys.settrace(lambda *a: None)),
                      ("current_frames", lambda: sys._current_frames())):
    try:
        attempt()
        done.append(name)
    except Exception as e:
        print("refused", name, type(e).__name__)
sys.settrace(None) if "settrace" in done else None
print("STEP", " ".join(done) or "none")
with open(sys.argv[1], "w") as f:
    f.write("escaped")
