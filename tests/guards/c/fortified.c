/* open() without a mode under -D_FORTIFY_SOURCE=2 -O2, with flags the
 * compiler cannot see: glibc's header turns the call into __open_2. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

int main(int argc, char **argv)
{
	int flags = argc > 5 ? O_RDWR : O_RDONLY;
	char buf[4096];
	ssize_t n;
	if (argc < 2)
		return 2;
	int fd = open(argv[1], flags);
	if (fd < 0) {
		printf("refused: %s\n", strerror(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	return 0;
}
