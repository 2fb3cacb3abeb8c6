// honest: output_5mb
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: blob
// evidence: 5 MB of random bytes (CWD/blob) copied to stdout in odd-sized writes; the runner compares sha256 of what it received
// ok-if: [ "$(sha256sum < "$OUT" | cut -d' ' -f1)" = "$(sha256sum < "$CWD/blob" | cut -d' ' -f1)" ]
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	static char buf[7777];
	int fd = open("blob", O_RDONLY);
	if (fd < 0)
		return 1;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		char *p = buf;
		while (n > 0) {
			ssize_t w = write(1, p, n);
			if (w <= 0)
				return 2;
			p += w;
			n -= w;
		}
	}
	return 0;
}
