"""Escape: code that runs while the interpreter tears down (a __del__ of a
module global, an atexit handler, a daemon thread), hoping the hook is gone."""
import atexit, os, sys, threading, time
out = sys.argv[1]
class Late:
    def __del__(self):
        os.system("echo escaped > '%s'" % out)
keep = Late()
def spin():
    while True:
        try:
            os.system("echo escaped > '%s'" % out)
        except Exception:
            pass
        time.sleep(0.01)
threading.Thread(target=spin, daemon=True).start()
time.sleep(0.05)
