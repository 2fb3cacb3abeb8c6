"""Escape: os.fork + os.execv."""
import os, sys
pid = os.fork()
if pid == 0:
    os.execv("/bin/sh", ["sh", "-c", "echo escaped > '%s'" % sys.argv[1]])
os.waitpid(pid, 0)
