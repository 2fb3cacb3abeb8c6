// honest: c_mmap_malloc
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
// setup: blob
// evidence: mmap()s its 5 MB input file (CWD/blob) read-only, writes the mapping to CWD/copy.bin, then malloc(64 MB), fills and checks it; the runner compares the copy
// ok-if: out_has "mmap-ok" && cmp -s "$CWD/blob" "$CWD/copy.bin"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	struct stat sb;
	int fd = open("blob", O_RDONLY);
	if (fd < 0 || fstat(fd, &sb) < 0)
		return perror("blob"), 1;
	unsigned char *m = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 1;
	int out = open("copy.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return perror("copy.bin"), 1;
	for (off_t o = 0; o < sb.st_size;) {
		ssize_t w = write(out, m + o, sb.st_size - o);
		if (w <= 0)
			return perror("write"), 1;
		o += w;
	}
	close(out);
	munmap(m, sb.st_size);
	size_t n = 64UL << 20;
	unsigned char *p = malloc(n);
	if (!p)
		return puts("malloc failed"), 1;
	memset(p, 0xa5, n);
	for (size_t i = 0; i < n; i += 4096)
		if (p[i] != 0xa5)
			return puts("bad memory"), 1;
	puts("mmap-ok");
	return 0;
}
