# attack: tiocsti_plain
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: tty
# needs: tiocsti
# evidence: fcntl.ioctl(0, TIOCSTI) (plain 32-bit command) pushes a command into the terminal's input queue (the runner's pty holds "echo sandlock-injected-TOKEN")
# escaped-if: grep -aq "injected-$TOKEN" "$RUN/tty_input"
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import fcntl, termios
try:
    for c in ('echo sandlock-injected-%s\n' % A['token']).encode():
        fcntl.ioctl(0, termios.TIOCSTI, bytes([c]))
except OSError as e:
    print('TIOCSTI:', e)
