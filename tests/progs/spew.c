/* Write argv[1] bytes to stdout as fast as possible, then exit at once. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1 << 20;
	char buf[65536];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = 'a' + i % 26;
	while (n > 0) {
		ssize_t w = write(1, buf, n < (long)sizeof(buf) ? (size_t)n : sizeof(buf));
		if (w <= 0)
			return 1;
		n -= w;
	}
	return 0;
}
