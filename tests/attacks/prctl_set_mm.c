// attack: prctl_set_mm
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: root
// evidence: prctl(PR_SET_MM) (single fields, or the whole PR_SET_MM_MAP) points the argument area at a fake string, changing what /proc/PID/cmdline shows (process disguise) (canary cmdline_forged)
// escaped-if: ev cmdline_forged
#include "attack.h"
#include <linux/prctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>


static int stat_fields(unsigned long *f, int max)
{
	char buf[4096];
	int fd = open("/proc/self/stat", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *s = strrchr(buf, ')') + 2;
	int i = 3;
	for (char *t = strtok(s, " "); t && i < max; t = strtok(NULL, " "), i++)
		f[i] = strtoul(t, NULL, 10);
	return 0;
}

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	/* /proc/PID/cmdline only reads anonymous memory */
	char *fake = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(fake, "kworker/0:1H");
	unsigned long s = (unsigned long)fake, e = s + strlen(fake) + 1;
	int r1 = prctl(PR_SET_MM, PR_SET_MM_ARG_START, s, 0, 0);
	int r2 = prctl(PR_SET_MM, PR_SET_MM_ARG_END, e, 0, 0);
	say("PR_SET_MM_ARG_*: %d %d (%s)\n", r1, r2, strerror(errno));
	if (r1 || r2) {
		unsigned long f[64] = { 0 };
		static unsigned long auxv[128];
		if (stat_fields(f, 64))
			return 1;
		int afd = open("/proc/self/auxv", O_RDONLY);
		ssize_t an = read(afd, auxv, sizeof auxv);
		struct prctl_mm_map m = {
			.start_code = f[26], .end_code = f[27], .start_data = f[45], .end_data = f[46],
			.start_brk = f[47], .brk = (unsigned long)sbrk(0), .start_stack = f[28],
			.arg_start = s, .arg_end = e, .env_start = f[50], .env_end = f[51],
			.auxv = (unsigned long long *)auxv, .auxv_size = an > 0 ? an : 0, .exe_fd = -1,
		};
		int r = prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long)&m, sizeof m, 0);
		say("PR_SET_MM_MAP: %d (%s)\n", r, r ? strerror(errno) : "");
	}
	char buf[256] = { 0 };
	int fd = open("/proc/self/cmdline", O_RDONLY);
	if (fd >= 0 && read(fd, buf, sizeof buf - 1) > 0 && !strcmp(buf, fake))
		canary("cmdline_forged", buf);
	say("cmdline now: %s\n", buf);
	return 0;
}
