# A long-lived worker speaking Content-Length framed JSON-RPC over stdio.
import json, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
while True:
    line = inp.readline()
    if not line:
        break
    if not line.lower().startswith(b"content-length:"):
        continue
    n = int(line.split(b":")[1])
    inp.readline()  # blank line
    req = json.loads(inp.read(n))
    if req.get("method") == "exit":
        break
    body = json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": sum(req["params"])}).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()
