"""Escape: subprocess."""
import subprocess, sys
subprocess.run(["/bin/sh", "-c", "echo escaped > '%s'" % sys.argv[1]])
