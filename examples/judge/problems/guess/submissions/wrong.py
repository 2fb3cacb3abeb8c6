# guess, wrong: asks 1, 2, 3, ... and runs out of questions.
n = int(input())
for x in range(1, n + 1):
    print("?", x, flush=True)
    if input().strip() != ">":
        break
