/* Allocate argv[1] MB, touch it page by page, exit 0 (1 if refused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], 0, 10) : 100;
	volatile char *p = malloc(mb << 20);
	if (!p) {
		fprintf(stderr, "allocation of %zu MB refused\n", mb);
		return 1;
	}
	for (size_t i = 0; i < (mb << 20); i += 4096)
		p[i] = 1;
	return 0;
}
