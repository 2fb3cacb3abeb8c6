// honest: alloc_100mb
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: malloc(100 MB), touched page by page, checksum verified; prints alloc-ok
// ok-if: out_has "alloc-ok"
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	size_t n = 100UL << 20;
	unsigned char *p = malloc(n);
	if (!p) {
		printf("malloc failed\n");
		return 1;
	}
	for (size_t i = 0; i < n; i += 4096)
		p[i] = (unsigned char)(i >> 12);
	unsigned long s = 0, e = 0;
	for (size_t i = 0; i < n; i += 4096) {
		s += p[i];
		e += (unsigned char)(i >> 12);
	}
	printf(s == e ? "alloc-ok\n" : "alloc-bad\n");
	return 0;
}
