"""Honest: an uncaught exception: traceback on stderr, status 1."""
def inner():
    return {}["missing"]
print("before")
inner()
