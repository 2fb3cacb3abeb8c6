# honest: exit_code
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: the program exits 42; the launcher sees status 42
# ok-if: [ "$(st code)" = 42 ]
import sys
sys.exit(42)
