# honest: py_ctypes
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: ctypes loads libc.so.6 and calls qsort with a Python comparison callback (a libffi closure: executable trampoline memory, memfd refused so libffi falls back), plus strlen and a ctypes array; prints ctypes-ok with the sorted array
# ok-if: out_has "ctypes-ok 1 2 3 5 8 13 21 34 5"
import ctypes

libc = ctypes.CDLL("libc.so.6")  # find_library forks: see py_find_library.py
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
arr = (ctypes.c_int * 8)(21, 3, 34, 1, 13, 5, 2, 8)
libc.qsort(arr, len(arr), ctypes.sizeof(ctypes.c_int), CMP(lambda a, b: a[0] - b[0]))
libc.strlen.restype = ctypes.c_size_t
print("ctypes-ok", *arr, libc.strlen(b"hello"))
