// honest: c_random
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
// evidence: a C program seeds itself from getrandom(2), getentropy(3), arc4random_buf(3) and /dev/urandom; each gives 32 bytes, none all zero, all different; prints random-ok 4
// ok-if: out_has "random-ok 4"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	static const unsigned char zero[32];
	unsigned char b[4][32];
	memset(b, 0, sizeof b);
	int ok = 0;
	if (getrandom(b[0], 32, 0) == 32)
		ok++;
	if (getentropy(b[1], 32) == 0)
		ok++;
	arc4random_buf(b[2], 32);
	ok++;
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd >= 0 && read(fd, b[3], 32) == 32)
		ok++;
	for (int i = 0; i < 4; i++) {
		if (!memcmp(b[i], zero, 32))
			ok = -10;
		for (int j = 0; j < i; j++)
			if (!memcmp(b[i], b[j], 32))
				ok = -20;
	}
	srand(b[0][0] | b[0][1] << 8);
	printf("random-ok %d %d\n", ok, rand() % 1000);
	return ok != 4;
}
