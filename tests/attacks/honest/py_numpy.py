# honest: py_numpy
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a numpy submission (native extension, OpenBLAS thread pool) multiplies 300x300 matrices: A @ inv(A) = I, an exact integer product, sum(ones @ ones) = 300^3; prints numpy-ok 27000000 (numpy-missing is accepted only when the runner cannot import numpy either)
# ok-if: out_has "numpy-ok 27000000" || { out_has "numpy-missing" && ! /usr/bin/python3 -c "import numpy" 2>/dev/null; }
try:
    import numpy as np
except ImportError:
    print("numpy-missing")
    raise SystemExit(0)
n = 300
rng = np.random.default_rng(1)
a = rng.random((n, n)) + n * np.eye(n)
ok = np.allclose(a @ np.linalg.inv(a), np.eye(n), atol=1e-8)
b = np.arange(n * n, dtype=np.int64).reshape(n, n) % 7
ok = ok and bool(((b @ np.full((n, n), 100, dtype=np.int64)) == 100 * b.sum(axis=1)[:, None]).all())
s = int((np.ones((n, n)) @ np.ones((n, n))).sum())
print("numpy-ok" if ok else "numpy-bad", s)
