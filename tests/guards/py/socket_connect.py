"""Escape: a TCP connection to a listener on 127.0.0.1."""
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("127.0.0.1", int(sys.argv[3])))
s.sendall(b"escaped")
s.close()
