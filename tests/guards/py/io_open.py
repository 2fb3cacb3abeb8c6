"""Escape: io.open, _io.open, io.FileIO (the C entry points, not builtins.open)."""
import io, _io, sys
out, secret = sys.argv[1], sys.argv[2]
for opener in (io.open, _io.open):
    try:
        print(opener(secret).read())
    except OSError as e:
        print("refused", type(e).__name__)
with io.FileIO(out, "w") as f:
    f.write(b"escaped")
