"""Escape: load a native module the program wrote into its working directory
(evil.so, whose init function writes the file named by EVIL_OUT)."""
import importlib.util, os, sys
os.environ["EVIL_OUT"] = sys.argv[1]
sys.path.insert(0, os.getcwd())
try:
    import evil  # noqa: F401
except ImportError as e:
    print("import", type(e).__name__, e)
except SystemError:
    pass
try:
    spec = importlib.util.spec_from_file_location("evil", os.getcwd() + "/evil.so")
    importlib.util.module_from_spec(spec)
except ImportError as e:
    print("spec", type(e).__name__, e)
except SystemError:
    pass
