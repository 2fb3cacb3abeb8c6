# A student's submission: reads numbers, prints their sum, then tries to
# peek at things it should not see.
import os, sys
nums = [int(x) for x in sys.stdin.read().split()]
print("sum:", sum(nums))
print("secret in env:", "GRADER_SECRET" in os.environ)
try:
    os.fork()
    print("fork: allowed")
except Exception as e:
    print("fork:", e)
