# expect: dynload@3 eval@5 introspection@10 introspection@11 introspection@12 introspection@13 introspection@14 introspection@15 introspection@16 eval@17 eval@18 introspection@19 introspection@20 introspection@21 introspection@22
"""Known escapes from a Python sandbox, by shape."""
import ctypes
import gc
import marshal
import pickle
import sys
import types

b = print.__self__
classes = ().__class__.__bases__[0].__subclasses__()
objs = gc.get_objects()
frame = sys._getframe().f_back
g = frame.f_globals
bi = __builtins__
sys.modules['os'].system('id')
code = types.CodeType
data = pickle.loads(b"")
f = (lambda: 0).__code__
v = vars()
gl = globals()['__builtins__']
sys.addaudithook(lambda *a: None)
