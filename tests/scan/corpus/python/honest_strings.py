# expect: clean
'''Strings of every shape, none of them code.'''
r = r"C:\path\exec(\"x\")"
b = b"\x0f\x01\x05 import os"
rb = rb"\x0f\x05 are two bytes of text here"
u = u"socket.socket()"
t = """
os.system('id')
"""
name = "world"
f = f"hello {name} {{not code: __import__('os')}} {len(name) * 2:>{4}}"
nested = f"{'{'} {name.upper()} {'}'}"
cont = "a" \
    "b"
print(r, b[:0], rb[:0], u, t, f, nested, cont)
