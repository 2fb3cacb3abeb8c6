# honest: signal_term
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: the program sends itself SIGTERM; status is 128+15 = 143
# ok-if: [ "$(st code)" = 143 ]
import os, signal, time
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(5)
