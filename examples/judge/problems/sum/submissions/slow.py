# spins: times out on the first test
import sys

data = sys.stdin.read().split()
while True:
    pass
