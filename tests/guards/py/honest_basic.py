"""Honest: arithmetic, its input file in the working directory, a file in its
tmp directory (argv[1], or the tempfile default), threads, stdlib imports."""
import collections, json, os, re, sys, tempfile, threading
tmp = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else tempfile.gettempdir()
data = open("in.txt").read().split()
nums = [int(x) for x in data]
print("sum", sum(nums), "max", max(nums))
path = os.path.join(tmp, "honest-out.txt")
with open(path, "w") as f:
    f.write(json.dumps(nums))
print("back", json.load(open(path)) == nums)
os.remove(path)
results = []
threads = [threading.Thread(target=lambda i=i: results.append(i * i)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads", sorted(results))
print("re", re.findall(r"\d+", "a1b22c333"), collections.Counter("abracadabra").most_common(2))
with tempfile.TemporaryDirectory(dir=tmp) as d:
    os.makedirs(os.path.join(d, "x", "y"))
    print("tree", sorted(os.listdir(d)))
import pathlib
print("pathlib", pathlib.Path("in.txt").read_text().split()[0])
