"""Escape: an obfuscated import and attribute name."""
import sys
getattr(__import__("o" + "s"), "sys" + "tem")("echo escaped > '%s'" % sys.argv[1])
