"""A grader's persistent worker: one JSON request per line on stdin, one
JSON answer per line on stdout, until EOF."""
import json
import sys

for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "add":
        ans = {"id": req["id"], "result": sum(req["args"])}
    else:
        ans = {"id": req.get("id"), "error": "unknown op"}
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
