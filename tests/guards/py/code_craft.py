"""Escape: crafted code objects (marshal.loads, code.replace, types.CodeType,
__code__ assignment): the door to bytecode that corrupts memory.  Here the
crafted code only writes the marker, so the test can see it ran."""
import marshal, sys, types
out = sys.argv[1]
src = "open(%r, 'w').write('escaped')" % out
ran = []
def f():
    pass
for name, make in (
        ("marshal", lambda: marshal.loads(marshal.dumps(compile(src, "x", "exec")))),
        ("replace", lambda: compile("pass", "x", "exec").replace(co_consts=compile(src, "x", "exec").co_consts)),
        ("CodeType", lambda: types.CodeType(*[getattr(compile(src, "x", "exec"), a) for a in (
            "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_stacksize",
            "co_flags", "co_code", "co_consts", "co_names", "co_varnames", "co_filename", "co_name",
            "co_qualname", "co_firstlineno", "co_linetable", "co_exceptiontable")]))):
    try:
        code = make()
        ran.append(name)
    except Exception as e:
        print("refused", name, type(e).__name__)
try:
    f.__code__ = compile("def g(): pass", "x", "exec").co_consts[0]
    ran.append("__code__")
except Exception as e:
    print("refused __code__", type(e).__name__)
print("STEP", " ".join(ran) or "none")
