"""Escape: print.__self__ is the builtins module, whose __import__ gives os."""
import sys
print.__self__.__import__("os").system("echo escaped > '%s'" % sys.argv[1])
