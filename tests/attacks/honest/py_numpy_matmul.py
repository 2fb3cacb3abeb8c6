# honest: py_numpy_matmul
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: numpy (native extension + OpenBLAS threads) multiplies two 300x300 matrices and checks against an exact integer result; prints numpy-ok
# ok-if: out_has "numpy-ok"
import numpy as np
n = 300
a = np.arange(n * n, dtype=np.float64).reshape(n, n) % 7
b = np.eye(n) * 2 + np.ones((n, n))
c = a @ b
exp = 2 * a + a.sum(axis=1, keepdims=True)
assert np.array_equal(c, exp), "matmul mismatch"
print("numpy-ok", int(c.sum()), np.linalg.matrix_rank(b))
