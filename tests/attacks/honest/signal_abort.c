// honest: signal_abort
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the program calls abort(); status is 128+SIGABRT = 134
// ok-if: [ "$(st code)" = 134 ]
#include <stdlib.h>
int main(void)
{
	abort();
}
