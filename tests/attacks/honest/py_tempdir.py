# honest: py_tempdir
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --isolate-tmp --no-fork --no-network --clean-env --cpu 5 --mem 256 | isolate-tmp
# variant: landlock | --landlock --isolate-tmp --no-fork --no-network --clean-env --cpu 5 --mem 256 | landlock+isolate-tmp
# evidence: tempfile.TemporaryDirectory with nested files, os.walk, shutil.copy/move and automatic cleanup; prints tempdir-ok 3 and that it was removed
# ok-if: out_has "tempdir-ok 3 removed"
import os, shutil, tempfile
with tempfile.TemporaryDirectory(prefix="student-") as d:
    os.makedirs(os.path.join(d, "a", "b"))
    with open(os.path.join(d, "a", "x.txt"), "w") as f:
        f.write("x" * 1000)
    shutil.copy(os.path.join(d, "a", "x.txt"), os.path.join(d, "a", "b", "y.txt"))
    shutil.move(os.path.join(d, "a", "b", "y.txt"), os.path.join(d, "z.txt"))
    open(os.path.join(d, "a", "b", "w.txt"), "w").close()
    n = sum(len(fs) for _, _, fs in os.walk(d))
print("tempdir-ok", n, "removed" if not os.path.exists(d) else "left")
