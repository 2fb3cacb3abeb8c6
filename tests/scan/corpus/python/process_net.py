# expect: process@4 network@5 network@6 process@7 process@9 process@12 process@13 process@14 process@16 process@17
import os
import os as o2
import subprocess
import socket
from urllib import request
from os import system, popen as po
from os import *
import pty

subprocess.run(["id"])
os.system("id")
o2.fork()
os.execv("/bin/sh", ["sh"])
alias = os
alias.posix_spawn("/bin/true", ["true"], {})
execvp("sh", ["sh"])
s = socket.socket()
