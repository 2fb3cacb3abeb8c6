// honest: stdin_echo
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: stdin
// evidence: stdin (a file of lines carrying TOKEN) is copied to stdout; output equals input byte for byte
// ok-if: cmp -s "$RUN/stdin.txt" "$OUT"
#include <unistd.h>

int main(void)
{
	char buf[4096];
	ssize_t n;
	while ((n = read(0, buf, sizeof buf)) > 0)
		if (write(1, buf, n) != n)
			return 1;
	return n < 0;
}
