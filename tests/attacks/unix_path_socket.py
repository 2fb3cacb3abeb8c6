# attack: unix_path_socket
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: socket(AF_UNIX)+connect reaches the grader's unix socket at a filesystem path (EV/unix.sock, mode 0777)
# escaped-if: conn unix
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import socket
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(A['unix'])
    s.send(b'unix_path')
except OSError as e:
    print('unix:', e, flush=True)
