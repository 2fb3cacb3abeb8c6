// honest: c_mmap_malloc
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
// setup: blob
// evidence: a C submission mmaps its 5 MB input (CWD/blob) read-only and checksums it, touches a 64 MB malloc, and writes its result through a MAP_SHARED mapping of CWD/mapped.out (the runner recomputes the checksum)
// ok-if: out_has "mmap-ok" && grep -aqx "mapped result $(/usr/bin/python3 -c 'import sys; print(sum(open(sys.argv[1], "rb").read()))' "$CWD/blob")" <(tr -d '\0' <"$CWD/mapped.out")
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	int fd = open("blob", O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return 1;
	unsigned char *in = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (in == MAP_FAILED)
		return 2;
	unsigned long sum = 0;
	for (off_t i = 0; i < st.st_size; i++)
		sum += in[i];
	munmap(in, st.st_size);
	close(fd);

	size_t n = 64UL << 20;
	unsigned char *p = malloc(n);
	if (!p)
		return 3;
	for (size_t i = 0; i < n; i += 4096)
		p[i] = (unsigned char)(i >> 12);
	unsigned long t = 0;
	for (size_t i = 0; i < n; i += 4096)
		t += p[i];
	free(p);

	int o = open("mapped.out", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (o < 0 || ftruncate(o, 4096) < 0)
		return 4;
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, o, 0);
	if (m == MAP_FAILED)
		return 5;
	snprintf(m, 4096, "mapped result %lu\n", sum);
	if (msync(m, 4096, MS_SYNC) < 0)
		return 6;
	munmap(m, 4096);
	close(o);
	printf("mmap-ok %lu %lu\n", sum, t);
	return 0;
}
