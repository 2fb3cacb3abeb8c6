# honest: gcc_compile
# flags: --landlock --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-network --clean-env --cpu 5 --mem 256 | no-landlock
# evidence: the judge's compile step run sandboxed: gcc -O2 -Wall compiles a student C file (libm) into the working directory, then the binary runs; the runner checks the binary exists and its output
# ok-if: [ -x "$CWD/solution" ] && out_has "compiled-ok 3.141593 55"
set -eu
cat >solution.c <<'SRC'
#include <math.h>
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) { printf("compiled-ok %f %d\n", 4 * atan(1.0), fib(10)); return 0; }
SRC
gcc -O2 -Wall -o solution solution.c -lm
./solution
