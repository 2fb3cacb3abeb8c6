"""Escape: find the guard's hook and its state through gc, widen it, then write."""
import gc, sys
step = "none"
try:
    for o in gc.get_objects():
        if callable(o) and getattr(o, "__name__", "").startswith("_h_hook"):
            d = list(o.__defaults__)
            o.__defaults__ = tuple(d)
            step = "hook-state-modified"
    step = step if step != "none" else "gc-walk"
    print("STEP", step)
finally:
    with open(sys.argv[1], "w") as f:
        f.write("escaped")
