// honest: c_random
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: seeds a randomized algorithm from getrandom() and from /dev/urandom (64 bytes each, not all zero, not equal); prints random-ok
// ok-if: out_has "random-ok"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static int nonzero(const unsigned char *b, int n)
{
	for (int i = 0; i < n; i++)
		if (b[i])
			return 1;
	return 0;
}

int main(void)
{
	unsigned char a[64] = {0}, b[64] = {0};
	if (getrandom(a, sizeof a, 0) != (ssize_t)sizeof a)
		return perror("getrandom"), 1;
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b)
		return perror("/dev/urandom"), 1;
	close(fd);
	if (nonzero(a, 64) && nonzero(b, 64) && memcmp(a, b, 64))
		puts("random-ok");
	return 0;
}
