"""Honest: numpy imports and computes."""
import numpy as np
a = np.arange(1.0, 10.0).reshape(3, 3)
print((a @ a.T).tolist())
print(round(float(np.linalg.det(a + np.eye(3))), 6))
