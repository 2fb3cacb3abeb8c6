"""Escape: ctypes.CDLL(None).system."""
import sys, ctypes
ctypes.CDLL(None).system(("echo escaped > '%s'" % sys.argv[1]).encode())
