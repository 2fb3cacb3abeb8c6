# attack: udp_send
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: a UDP datagram reaches the runner's UDP listener on 127.0.0.1
# escaped-if: conn udp
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import socket
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b'udp_send', ('127.0.0.1', int(A['udp'])))
except OSError as e:
    print('udp:', e, flush=True)
