// attack: copy_file_range
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: grows CWD/cfr.bin to 40 MB with copy_file_range (no write() at all), ignoring SIGXFSZ; contained = the file stays within --fsize (default 10 MB)
// escaped-if: [ "$(fsize "$CWD/cfr.bin")" -gt 10485760 ]
// cleanup: rm -f "$CWD/cfr.bin"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	signal(SIGXFSZ, SIG_IGN);
	const char *srcs[] = { "/usr/bin/bash", "/bin/bash", "/usr/bin/python3.11", "/bin/ls" };
	int src = -1;
	for (unsigned i = 0; i < 4 && src < 0; i++)
		src = open(srcs[i], O_RDONLY);
	int dst = open("cfr.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (src < 0 || dst < 0) {
		say("open: %s\n", strerror(errno));
		return 1;
	}
	struct stat st;
	fstat(src, &st);
	long long total = 0;
	while (total < (40LL << 20)) {
		loff_t off = 0;
		ssize_t n = copy_file_range(src, &off, dst, NULL, st.st_size, 0);
		if (n <= 0) {
			say("copy_file_range: %zd %s\n", n, strerror(errno));
			break;
		}
		total += n;
	}
	say("copied %lld bytes\n", total);
	return 0;
}
