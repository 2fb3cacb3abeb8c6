/* Allocate 1 MB at a time, touching it, until refused: exit 3. */
#include <stdlib.h>
#include <string.h>
int main(void)
{
	for (;;) {
		volatile char *p = malloc(1 << 20);
		if (!p)
			return 3;
		for (int i = 0; i < (1 << 20); i += 4096)
			p[i] = 1;
	}
}
