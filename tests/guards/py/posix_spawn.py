"""Escape: os.posix_spawn."""
import os, sys
pid = os.posix_spawn("/bin/sh", ["sh", "-c", "echo escaped > '%s'" % sys.argv[1]], dict(os.environ))
os.waitpid(pid, 0)
