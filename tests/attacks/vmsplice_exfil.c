// attack: vmsplice_exfil
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --max-output 65536
// setup: stdout-pipe
// evidence: with --max-output 65536, 4 MB are pushed into the stdout pipe with vmsplice() (no write()); contained = the runner's copy of stdout stays within the cap (+ one pipe buffer: 200000 bytes)
// escaped-if: [ "$(fsize "$OUT")" -gt 200000 ]
#include "attack.h"
#include <sys/uio.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	static char buf[1 << 16];
	memset(buf, 'v', sizeof buf);
	long total = 0;
	for (int i = 0; i < 64; i++) {
		struct iovec iov = { buf, sizeof buf };
		ssize_t n = vmsplice(1, &iov, 1, 0);
		if (n < 0) {
			fprintf(stderr, "vmsplice: %s\n", strerror(errno));
			break;
		}
		total += n;
	}
	fprintf(stderr, "vmspliced %ld bytes\n", total);
	return 0;
}
