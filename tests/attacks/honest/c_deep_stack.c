// honest: c_deep_stack
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: a recursive C solution (depth 40000, ~150-byte frames: about 6 MB of the default 8 MB stack) returns the right value; prints stack-ok
// ok-if: out_has "stack-ok 800020000"
#include <stdio.h>
#include <string.h>

static unsigned long dfs(int depth)
{
	volatile char frame[128];
	memset((char *)frame, depth & 0x7f, sizeof frame);
	if (depth == 0)
		return 0;
	unsigned long r = dfs(depth - 1);
	return r + (unsigned long)depth + (unsigned long)(frame[depth % 128] & 0);
}

int main(void)
{
	printf("stack-ok %lu\n", dfs(40000));
	return 0;
}
