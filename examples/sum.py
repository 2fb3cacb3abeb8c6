# A submission for examples/tests: print the sum of the numbers on stdin.
import sys
print(sum(int(x) for x in sys.stdin.read().split()))
