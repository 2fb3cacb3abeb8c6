# attack: env_harvest
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: the program's own environment (os.environ and /proc/self/environ) is printed; the grader's environment holds the secret, which --clean-env must drop
# escaped-if: secret_leaked
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
for k, v in os.environ.items():
    print('%s=%s' % (k, v))
try:
    print(open('/proc/self/environ', 'rb').read().replace(b'\0', b'\n').decode('latin-1'))
except OSError as e:
    print('environ:', e)
