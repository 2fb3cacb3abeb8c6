"""Escape: pathlib (and a path object whose __fspath__ lies to the checker)."""
import pathlib, sys
out, secret = sys.argv[1], sys.argv[2]
class Liar:
    n = 0
    def __fspath__(self):
        Liar.n += 1
        return secret if Liar.n == 1 else "in.txt"
import _io
try:
    print(_io.open(Liar()).read())
except OSError as e:
    print("refused", type(e).__name__)
try:
    print(pathlib.Path(secret).read_text())
finally:
    pathlib.Path(out).write_text("escaped")
