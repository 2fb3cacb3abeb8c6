# attack: disk_bomb
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --fsize 10
# evidence: writes 60 MB into CWD/bomb.bin ignoring SIGXFSZ; contained = the file is no larger than --fsize 10 (MB)
# escaped-if: [ "$(fsize "$CWD/bomb.bin")" -gt 10485760 ]
# cleanup: rm -f "$CWD/bomb.bin"
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
import signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
chunk = b'd' * (1 << 20)
with open('bomb.bin', 'wb', buffering=0) as f:
    for i in range(60):
        try:
            f.write(chunk)
        except OSError as e:
            print('write:', e)
            break
