"""Escape: os.system starts a shell that writes the marker."""
import os, sys
os.system("echo escaped > '%s'" % sys.argv[1])
