# guess, idle: reads N, then waits for an answer to a question it never
# asks; the interactor waits for the question.
import sys
n = int(input())
sys.stdin.readline()
