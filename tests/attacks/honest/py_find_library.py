# honest: py_find_library
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# xfail: issue 14 (ctypes.util.find_library("c") runs /sbin/ldconfig -p through subprocess: a vfork, which --no-fork kills (verdict syscall_blocked, blocked vfork) although the program only wants a library name; with --violation errno the spawn fails, find_library falls back and the run is ok)
# variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 --violation errno | violation-errno
# evidence: the py_ctypes submission written the usual way, ctypes.CDLL(ctypes.util.find_library("c")): ctypes loads libc and calls qsort with a Python comparison callback (a libffi closure: executable trampoline memory, memfd refused so libffi falls back), plus strlen and a ctypes array; prints ctypes-ok with the sorted array
# ok-if: out_has "ctypes-ok 1 2 3 5 8 13 21 34 5"
import ctypes
import ctypes.util

libc = ctypes.CDLL(ctypes.util.find_library("c"))
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
arr = (ctypes.c_int * 8)(21, 3, 34, 1, 13, 5, 2, 8)
libc.qsort(arr, len(arr), ctypes.sizeof(ctypes.c_int), CMP(lambda a, b: a[0] - b[0]))
libc.strlen.restype = ctypes.c_size_t
print("ctypes-ok", *arr, libc.strlen(b"hello"))
