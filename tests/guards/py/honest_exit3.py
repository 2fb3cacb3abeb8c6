"""Honest: sys.exit(3) gives status 3."""
import sys
print("leaving")
sys.exit(3)
