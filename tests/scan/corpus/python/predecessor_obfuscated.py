# expect: dynamic-import@4 dynamic-import@6 obfuscated@6 process@6 obfuscated@7 dynamic-import@8 obfuscated@8 obfuscated@10 process@11 eval@12 obfuscated@12 eval@13 network@13 process@14 introspection@15
"""Obfuscated imports by shape: each line hides os.system or a module."""
import base64
import importlib

getattr(__import__('o' + 's'), 'sys' + 'tem')('id')
__import__(bytes([111, 115]).decode()).system('id')
m = __import__(chr(111) + chr(115))
name = "".join(["o", "s"])
mod = importlib.import_module(name)
importlib.import_module('subprocess').run(['id'])
exec(base64.b64decode("aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2lkJyk="))
exec("import socket")
x = f"{__import__('subprocess').check_output(['id'])}"
fn = getattr(m, name)
