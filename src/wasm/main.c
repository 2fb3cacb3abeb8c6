/*
 * The WebAssembly backend's executable: a WASI module turned into C by
 * wasm2c, linked with our WASI host.  sandlock starts it, as any program,
 * under its supervisor (src/wasm/backend.c builds the command line):
 *
 *   EXE [--pages N] [--disk MIB] [--ro HOST GUEST]... [--rw HOST GUEST]... -- ARGV0 ARG...
 *
 * The guest gets ARGV0 ARG..., this process's environment (sandlock gives
 * it a clean one, --clean-env or not: backend.c), 0/1/2, and the directories named, at
 * the guest paths named; --pages caps its memory (64 KiB pages), --disk
 * what its files may grow by in all (disk.c).
 */
#include "wasi.h"
#include "glue.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

extern char **environ;

static int usage(const char *why)
{
	fprintf(stderr, "sandlock-wasm: %s (usage: [--pages N] [--disk MIB] [--ro HOST GUEST] [--rw HOST GUEST] -- ARGV0 ARG...)\n",
		why);
	return 125;
}

int main(int argc, char **argv)
{
	uint32_t pages = 0;
	uint64_t disk = 0;
	struct wasi w;
	int i = 1;
	/* the directories are opened after the table exists */
	int first_dir = 0, end = 0;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			end = i;
			break;
		}
		if (!strcmp(argv[i], "--pages") && i + 1 < argc) {
			char *e;
			errno = 0;
			unsigned long v = strtoul(argv[++i], &e, 10);
			if (errno || *e || !v || v > 65536)
				return usage("invalid --pages");
			pages = (uint32_t)v;
		} else if (!strcmp(argv[i], "--disk") && i + 1 < argc) {
			char *e;
			errno = 0;
			unsigned long long v = strtoull(argv[++i], &e, 10);
			if (errno || *e || !v || v > (1ull << 40))
				return usage("invalid --disk");
			disk = (uint64_t)v << 20;
		} else if ((!strcmp(argv[i], "--ro") || !strcmp(argv[i], "--rw")) && i + 2 < argc) {
			if (!first_dir)
				first_dir = i;
			i += 2;
		} else {
			return usage("invalid option");
		}
	}
	if (!end || end + 1 >= argc)
		return usage("no command");
	if (wasi_init(&w, argv + end + 1, environ) != 0)
		return usage(strerror(errno));
	w.disk_cap = disk;
	for (i = first_dir ? first_dir : end; i < end; i++) {
		if (strcmp(argv[i], "--ro") && strcmp(argv[i], "--rw"))
			continue;
		if (wasi_preopen(&w, argv[i + 1], argv[i + 2], argv[i][3] == 'o') != 0) {
			fprintf(stderr, "sandlock-wasm: %s: %s\n", argv[i + 1], strerror(errno));
			return 125;
		}
		i += 2;
	}
	/* The guard-page build reserves 8 GiB of address space for the
	 * guest's memory (no bounds checks in the code): say so in one line
	 * where the host refuses it, not with the runtime's abort. */
	void *r = mmap(NULL, 0x200000000ul, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		fprintf(stderr, "sandlock-wasm: cannot reserve the 8 GiB of address space the guest's memory "
			"needs (%s; RLIMIT_AS?)\n", strerror(errno));
		return 125;
	}
	munmap(r, 0x200000000ul);
	/* as native Python: a closed pipe or a file size limit is an error
	 * the guest sees, not the host's death */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	return sl_wasm_run(&w, pages);
}
