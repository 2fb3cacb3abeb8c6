# A sample submission for go-grader's file mode: it reads the request (a
# JSON file named by its next-to-last argument, also in EVAL_REQUEST) and
# writes its response (the last argument, also EVAL_RESPONSE).
import json
import os
import sys

with open(os.environ["EVAL_REQUEST"]) as f:
    request = json.load(f)
with open(os.environ["EVAL_RESPONSE"], "w") as f:
    json.dump({"sum": sum(request["numbers"])}, f)
