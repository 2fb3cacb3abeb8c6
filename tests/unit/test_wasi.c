/*
 * The WASI host (src/wasm) against what a guest controls: addresses,
 * lengths and counts out of its memory, paths that climb out, absolute
 * paths, symbolic links planted in its tree, NUL bytes, read-only trees.
 * Every path check runs under both resolvers (openat2 and the walk).
 * No module is needed: the imports are called as the module would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wasi.h"

#define MEM (4 * 65536)
#define PATH 1024  /* where a path is put */
#define OUT 512    /* where results go */
#define IOV 256
#define BUF 8192

static char tmpl[64];
static uint8_t *mem;
static char *argv_[] = { "python", "-c", "pass", NULL };
static char *envp_[] = { "HOME=/", "LANG=C.UTF-8", NULL };

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* tmp/outside.txt (the secret), tmp/guest (the guest's rw "/"),
 * tmp/ro (read-only "/ro") */
static int setup(void **state)
{
	(void)state;
	char p[256];
	strcpy(tmpl, "/tmp/test_wasi.XXXXXX");
	assert_non_null(mkdtemp(tmpl));
	snprintf(p, sizeof(p), "%s/outside.txt", tmpl), put_file(p, "SECRET");
	snprintf(p, sizeof(p), "%s/guest", tmpl), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/guest/sub", tmpl), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/guest/a.txt", tmpl), put_file(p, "hello");
	snprintf(p, sizeof(p), "%s/guest/sub/b.txt", tmpl), put_file(p, "bee");
	snprintf(p, sizeof(p), "%s/guest/link_abs", tmpl), symlink("/etc/passwd", p);
	snprintf(p, sizeof(p), "%s/guest/link_rel", tmpl), symlink("../outside.txt", p);
	snprintf(p, sizeof(p), "%s/guest/link_in", tmpl), symlink("a.txt", p);
	snprintf(p, sizeof(p), "%s/guest/dirlink", tmpl), symlink("/", p);
	snprintf(p, sizeof(p), "%s/ro", tmpl), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/ro/r.txt", tmpl), put_file(p, "readonly");
	mem = calloc(1, MEM);
	return mem ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	free(mem);
	return system(cmd);
}

/* a host: fd 3 the rw root ("/"), fd 4 the read-only tree ("/ro") */
static void host(struct wasi *w, enum wasi_resolver r)
{
	char p[256];
	memset(mem, 0, MEM);
	assert_int_equal(wasi_init(w, argv_, envp_), 0);
	w->resolver = r;
	w->mem = mem;
	w->mem_size = MEM;
	snprintf(p, sizeof(p), "%s/guest", tmpl);
	assert_int_equal(wasi_preopen(w, p, "/", false), 0);
	snprintf(p, sizeof(p), "%s/ro", tmpl);
	assert_int_equal(wasi_preopen(w, p, "/ro", true), 0);
}

static uint32_t put_path(const char *s)
{
	memcpy(mem + PATH, s, strlen(s));
	return (uint32_t)strlen(s);
}

static uint32_t u32at(uint32_t a)
{
	uint32_t v;
	memcpy(&v, mem + a, 4);
	return v;
}

/* path_open relative to dirfd: the errno, the guest fd in *fd */
static uint32_t open_(struct wasi *w, uint32_t dirfd, const char *path, uint32_t oflags, uint64_t rights,
		      uint32_t *fd)
{
	uint32_t len = put_path(path);
	uint32_t e = wasi_path_open(w, dirfd, 0, PATH, len, oflags, rights, W_RIGHTS_ALL, 0, OUT);
	*fd = e ? UINT32_MAX : u32at(OUT);
	return e;
}

/* read up to n bytes of guest fd into out */
static uint32_t read_(struct wasi *w, uint32_t fd, char *out, size_t n)
{
	uint32_t b = BUF, l = (uint32_t)n;
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &l, 4);
	uint32_t e = wasi_fd_read(w, fd, IOV, 1, OUT);
	if (!e) {
		memcpy(out, mem + BUF, u32at(OUT));
		out[u32at(OUT)] = '\0';
	}
	return e;
}

static const enum wasi_resolver both[] = { WASI_RESOLVE_OPENAT2, WASI_RESOLVE_WALK };

static void resolver_probe_finds_openat2(void **state)
{
	(void)state;
	/* this machine's kernel has it (5.6+); the walk is tested below anyway */
	assert_int_equal(wasi_resolver_probe(), WASI_RESOLVE_OPENAT2);
}

static void honest_paths_work(void **state)
{
	(void)state;
	for (int r = 0; r < 2; r++) {
		struct wasi w;
		host(&w, both[r]);
		char got[64];
		uint32_t fd;
		const char *ok[] = { "a.txt", "./a.txt", "sub/../a.txt", "sub//./../a.txt" };
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(open_(&w, 3, ok[i], 0, W_RIGHT_FD_READ, &fd), W_ESUCCESS);
			assert_int_equal(read_(&w, fd, got, 60), W_ESUCCESS);
			assert_string_equal(got, "hello");
			assert_int_equal(wasi_fd_close(&w, fd), W_ESUCCESS);
		}
		assert_int_equal(open_(&w, 3, "sub/b.txt", 0, W_RIGHT_FD_READ, &fd), W_ESUCCESS);
		assert_int_equal(open_(&w, 4, "r.txt", 0, W_RIGHT_FD_READ, &fd), W_ESUCCESS);
		assert_int_equal(read_(&w, fd, got, 60), W_ESUCCESS);
		assert_string_equal(got, "readonly");
		/* write a new file, read it back */
		assert_int_equal(open_(&w, 3, "sub/new.txt", W_OFLAG_CREAT | W_OFLAG_TRUNC, W_RIGHT_FD_WRITE, &fd),
				 W_ESUCCESS);
		uint32_t b = BUF, l = 3;
		memcpy(mem + BUF, "new", 3);
		memcpy(mem + IOV, &b, 4);
		memcpy(mem + IOV + 4, &l, 4);
		assert_int_equal(wasi_fd_write(&w, fd, IOV, 1, OUT), W_ESUCCESS);
		assert_int_equal(u32at(OUT), 3);
		assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("sub/new.txt")), W_ESUCCESS);
		wasi_release(&w);
	}
}

static void escapes_are_refused(void **state)
{
	(void)state;
	static const struct { const char *path; uint32_t err; } bad[] = {
		{ "../outside.txt", W_ENOTCAPABLE },
		{ "sub/../../outside.txt", W_ENOTCAPABLE },
		{ "sub/../../guest/a.txt", W_ENOTCAPABLE }, /* out and back in */
		{ "/etc/passwd", W_ENOTCAPABLE },
		{ "//etc/passwd", W_ENOTCAPABLE },
		{ "..", W_ENOTCAPABLE },
		{ "link_abs", W_ELOOP },
		{ "link_rel", W_ELOOP },
		{ "link_in", W_ELOOP }, /* no link is followed, even inside */
		{ "dirlink/etc/passwd", W_ELOOP },
		{ "", W_ENOENT },
	};
	for (int r = 0; r < 2; r++) {
		struct wasi w;
		host(&w, both[r]);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			uint32_t fd;
			uint32_t e = open_(&w, 3, bad[i].path, 0, W_RIGHT_FD_READ, &fd);
			if (e != bad[i].err)
				fail_msg("resolver %d: %s: errno %u, expected %u", r, bad[i].path, e, bad[i].err);
		}
		/* from a directory the guest opened: ".." stops at it */
		uint32_t sub, fd;
		assert_int_equal(open_(&w, 3, "sub", W_OFLAG_DIRECTORY, W_RIGHT_FD_READDIR, &sub), W_ESUCCESS);
		assert_int_equal(open_(&w, sub, "../../outside.txt", 0, W_RIGHT_FD_READ, &fd), W_ENOTCAPABLE);
		/* a file is not a directory to resolve from */
		uint32_t file;
		assert_int_equal(open_(&w, 3, "a.txt", 0, W_RIGHT_FD_READ, &file), W_ESUCCESS);
		assert_int_equal(open_(&w, file, "x", 0, W_RIGHT_FD_READ, &fd), W_ENOTDIR);
		wasi_release(&w);
	}
}

static void nul_bytes_and_lengths(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_OPENAT2);
	memcpy(mem + PATH, "a.txt\0/../../outside.txt", 24);
	assert_int_equal(wasi_path_open(&w, 3, 0, PATH, 24, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EINVAL);
	/* the path runs past the end of memory, or wraps around 4 GiB */
	assert_int_equal(wasi_path_open(&w, 3, 0, MEM - 2, 5, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EFAULT);
	assert_int_equal(wasi_path_open(&w, 3, 0, 0xfffffff0u, 0x20, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EFAULT);
	assert_int_equal(wasi_path_open(&w, 3, 0, PATH, 0xffffffffu, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EFAULT);
	/* too long, inside memory */
	memset(mem + PATH, 'a', 5000);
	assert_int_equal(wasi_path_open(&w, 3, 0, PATH, 5000, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_ENAMETOOLONG);
	/* the result address out of memory: nothing opened */
	uint32_t len = put_path("a.txt");
	assert_int_equal(wasi_path_open(&w, 3, 0, PATH, len, 0, W_RIGHT_FD_READ, 0, 0, MEM - 2), W_EFAULT);
	/* bad descriptors */
	assert_int_equal(wasi_path_open(&w, 99, 0, PATH, len, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EBADF);
	assert_int_equal(wasi_path_open(&w, 0xffffffffu, 0, PATH, len, 0, W_RIGHT_FD_READ, 0, 0, OUT), W_EBADF);
	assert_int_equal(wasi_path_open(&w, 3, 0, PATH, len, 0x100, W_RIGHT_FD_READ, 0, 0, OUT), W_EINVAL);
	wasi_release(&w);
}

static void read_only_tree(void **state)
{
	(void)state;
	for (int r = 0; r < 2; r++) {
		struct wasi w;
		host(&w, both[r]);
		uint32_t fd;
		assert_int_equal(open_(&w, 4, "r.txt", 0, W_RIGHT_FD_WRITE, &fd), W_EROFS);
		assert_int_equal(open_(&w, 4, "r.txt", W_OFLAG_TRUNC, W_RIGHT_FD_READ, &fd), W_EROFS);
		assert_int_equal(open_(&w, 4, "new", W_OFLAG_CREAT, W_RIGHT_FD_READ, &fd), W_EROFS);
		assert_int_equal(wasi_path_unlink_file(&w, 4, PATH, put_path("r.txt")), W_EROFS);
		assert_int_equal(wasi_path_create_directory(&w, 4, PATH, put_path("d")), W_EROFS);
		assert_int_equal(wasi_path_remove_directory(&w, 4, PATH, put_path("d")), W_EROFS);
		assert_int_equal(wasi_path_filestat_set_times(&w, 4, 0, PATH, put_path("r.txt"), 0, 0, W_FST_MTIM_NOW),
				 W_EROFS);
		/* renaming out of it or into it */
		uint32_t a = put_path("r.txt");
		memcpy(mem + PATH + 100, "stolen", 6);
		assert_int_equal(wasi_path_rename(&w, 4, PATH, a, 3, PATH + 100, 6), W_EROFS);
		assert_int_equal(wasi_path_rename(&w, 3, PATH, put_path("a.txt"), 4, PATH + 100, 6), W_EROFS);
		/* a read-only descriptor: no write, no truncation */
		assert_int_equal(open_(&w, 4, "r.txt", 0, W_RIGHT_FD_READ, &fd), W_ESUCCESS);
		uint32_t b = BUF, l = 1;
		memcpy(mem + IOV, &b, 4);
		memcpy(mem + IOV + 4, &l, 4);
		assert_int_equal(wasi_fd_write(&w, fd, IOV, 1, OUT), W_EBADF);
		assert_int_equal(wasi_fd_filestat_set_size(&w, fd, 0), W_EROFS);
		assert_int_equal(wasi_fd_allocate(&w, fd, 0, 100), W_EROFS);
		wasi_release(&w);
		char p[256], got[16] = "";
		snprintf(p, sizeof(p), "%s/ro/r.txt", tmpl);
		FILE *f = fopen(p, "r");
		assert_non_null(fgets(got, sizeof(got), f));
		fclose(f);
		assert_string_equal(got, "readonly");
	}
}

static void changes_stay_inside(void **state)
{
	(void)state;
	char p[256];
	for (int r = 0; r < 2; r++) {
		struct wasi w;
		host(&w, both[r]);
		assert_int_equal(wasi_path_create_directory(&w, 3, PATH, put_path("../made")), W_ENOTCAPABLE);
		assert_int_equal(wasi_path_create_directory(&w, 3, PATH, put_path("dirlink/tmp/made")), W_ELOOP);
		assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("../outside.txt")), W_ENOTCAPABLE);
		assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path(".")), W_EINVAL);
		assert_int_equal(wasi_path_remove_directory(&w, 3, PATH, put_path("..")), W_EINVAL);
		assert_int_equal(wasi_path_remove_directory(&w, 3, PATH, put_path("sub/..")), W_EINVAL);
		uint32_t a = put_path("a.txt");
		memcpy(mem + PATH + 100, "../stolen", 9);
		assert_int_equal(wasi_path_rename(&w, 3, PATH, a, 3, PATH + 100, 9), W_ENOTCAPABLE);
		/* links: refused, whatever they name */
		memcpy(mem + PATH + 100, "l", 1);
		assert_int_equal(wasi_path_symlink(&w, PATH, put_path("/etc/passwd"), 3, PATH + 100, 1), W_EPERM);
		assert_int_equal(wasi_path_link(&w, 4, 0, PATH, put_path("r.txt"), 3, PATH + 100, 1), W_EPERM);
		/* unlinking a planted link removes the link, not what it names */
		snprintf(p, sizeof(p), "%s/guest/link_rel", tmpl);
		assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("link_rel")), W_ESUCCESS);
		struct stat sb;
		assert_int_not_equal(lstat(p, &sb), 0);
		snprintf(p, sizeof(p), "%s/outside.txt", tmpl);
		assert_int_equal(stat(p, &sb), 0);
		snprintf(p, sizeof(p), "%s/guest/link_rel", tmpl);
		assert_int_equal(symlink("../outside.txt", p), 0);
		/* stat of a link: shown without following; followed: refused */
		assert_int_equal(wasi_path_filestat_get(&w, 3, 0, PATH, put_path("link_abs"), OUT), W_ESUCCESS);
		assert_int_equal(mem[OUT + 16], W_FT_SYMLINK);
		assert_int_equal(wasi_path_filestat_get(&w, 3, W_LOOKUP_FOLLOW, PATH, put_path("link_abs"), OUT),
				 W_ELOOP);
		assert_int_equal(wasi_path_filestat_get(&w, 3, W_LOOKUP_FOLLOW, PATH, put_path("a.txt"), OUT),
				 W_ESUCCESS);
		assert_int_equal(mem[OUT + 16], W_FT_REG);
		uint64_t size;
		memcpy(&size, mem + OUT + 32, 8);
		assert_int_equal(size, 5);
		assert_int_equal(wasi_path_filestat_get(&w, 3, 0, PATH, put_path("a.txt"), MEM - 8), W_EFAULT);
		wasi_release(&w);
	}
}

static void iovecs_are_checked(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_OPENAT2);
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	uint32_t g;
	assert_int_equal(wasi_fd_add(&w, pfd[1], false, false, &g), 0);
	uint32_t b = BUF, l = 4;
	memcpy(mem + BUF, "ping", 4);
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &l, 4);
	assert_int_equal(wasi_fd_write(&w, g, IOV, 1, OUT), W_ESUCCESS);
	char got[8] = "";
	assert_int_equal(read(pfd[0], got, sizeof(got)), 4);
	/* counts: huge, just past the limit; the array past memory */
	assert_int_equal(wasi_fd_write(&w, g, IOV, 0xffffffffu, OUT), W_EINVAL);
	assert_int_equal(wasi_fd_write(&w, g, IOV, WASI_IOV_MAX + 1, OUT), W_EINVAL);
	assert_int_equal(wasi_fd_write(&w, g, MEM - 4, 1, OUT), W_EFAULT);
	assert_int_equal(wasi_fd_write(&w, g, 0xfffffffcu, 1, OUT), W_EFAULT);
	/* a buffer past the end, or wrapping */
	b = MEM - 2;
	memcpy(mem + IOV, &b, 4);
	assert_int_equal(wasi_fd_write(&w, g, IOV, 1, OUT), W_EFAULT);
	b = 0xffffffffu, l = 2;
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &l, 4);
	assert_int_equal(wasi_fd_read(&w, 0, IOV, 1, OUT), W_EFAULT);
	/* the result address */
	b = BUF, l = 4;
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &l, 4);
	assert_int_equal(wasi_fd_write(&w, g, IOV, 1, MEM - 3), W_EFAULT);
	/* many valid entries of length 0: within the limit, fine */
	memset(mem + IOV, 0, 8 * WASI_IOV_MAX);
	assert_int_equal(wasi_fd_write(&w, g, IOV, WASI_IOV_MAX, OUT), W_ESUCCESS);
	/* descriptors the guest was never given */
	assert_int_equal(wasi_fd_write(&w, 77, IOV, 1, OUT), W_EBADF);
	assert_int_equal(wasi_fd_write(&w, 0x80000000u, IOV, 1, OUT), W_EBADF);
	assert_int_equal(wasi_fd_close(&w, 1234), W_EBADF);
	assert_int_equal(wasi_fd_prestat_get(&w, 0, OUT), W_EBADF);
	assert_int_equal(wasi_fd_seek(&w, g, 0, 7, OUT), W_EINVAL);
	close(pfd[0]);
	wasi_release(&w);
}

static void args_and_environment(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_OPENAT2);
	assert_int_equal(wasi_args_sizes_get(&w, OUT, OUT + 4), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 3);
	assert_int_equal(u32at(OUT + 4), 7 + 3 + 5);
	assert_int_equal(wasi_args_get(&w, 2048, 4096), W_ESUCCESS);
	assert_string_equal((char *)mem + u32at(2048 + 4), "-c");
	assert_int_equal(wasi_args_get(&w, MEM - 8, 4096), W_EFAULT);
	assert_int_equal(wasi_args_get(&w, 2048, MEM - 10), W_EFAULT);
	assert_int_equal(wasi_args_sizes_get(&w, MEM, OUT), W_EFAULT);
	assert_int_equal(wasi_environ_sizes_get(&w, OUT, OUT + 4), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 2);
	assert_int_equal(wasi_environ_get(&w, 2048, 4096), W_ESUCCESS);
	assert_string_equal((char *)mem + u32at(2048 + 4), "LANG=C.UTF-8");
	/* the preopens as wasi-libc asks for them */
	assert_int_equal(wasi_fd_prestat_get(&w, 4, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT + 4), 3);
	assert_int_equal(wasi_fd_prestat_dir_name(&w, 4, PATH, 3), W_ESUCCESS);
	assert_memory_equal(mem + PATH, "/ro", 3);
	assert_int_equal(wasi_fd_prestat_dir_name(&w, 4, PATH, 2), W_ENAMETOOLONG);
	assert_int_equal(wasi_fd_prestat_dir_name(&w, 4, MEM - 1, 3), W_EFAULT);
	assert_int_equal(wasi_fd_prestat_get(&w, 5, OUT), W_EBADF);
	wasi_release(&w);
}

static void directories_list(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_WALK);
	uint32_t d;
	assert_int_equal(open_(&w, 3, "sub", W_OFLAG_DIRECTORY, W_RIGHT_FD_READDIR, &d), W_ESUCCESS);
	/* a small buffer: the last entry is cut, a full buffer says "more" */
	assert_int_equal(wasi_fd_readdir(&w, d, BUF, 30, 0, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 30);
	bool seen = false;
	uint64_t cookie = 0;
	for (int rounds = 0; rounds < 10; rounds++) {
		assert_int_equal(wasi_fd_readdir(&w, d, BUF, 4096, cookie, OUT), W_ESUCCESS);
		uint32_t used = u32at(OUT);
		if (!used)
			break;
		for (uint32_t at = 0; at + 24 <= used;) {
			uint32_t nl;
			memcpy(&cookie, mem + BUF + at, 8);
			memcpy(&nl, mem + BUF + at + 16, 4);
			if (nl == 5 && !memcmp(mem + BUF + at + 24, "b.txt", 5))
				seen = true;
			at += 24 + nl;
		}
		if (used < 4096)
			break;
	}
	assert_true(seen);
	assert_int_equal(wasi_fd_readdir(&w, d, MEM - 10, 4096, 0, OUT), W_EFAULT);
	assert_int_equal(wasi_fd_readdir(&w, d, BUF, 4096, 0, MEM), W_EFAULT);
	wasi_release(&w);
}

static void clocks_random_poll_sockets(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_OPENAT2);
	assert_int_equal(wasi_clock_time_get(&w, 1, 0, OUT), W_ESUCCESS);
	assert_int_equal(wasi_clock_time_get(&w, 9, 0, OUT), W_EINVAL);
	assert_int_equal(wasi_clock_time_get(&w, 0, 0, MEM - 4), W_EFAULT);
	assert_int_equal(wasi_clock_res_get(&w, 0, OUT), W_ESUCCESS);
	assert_int_equal(wasi_random_get(&w, BUF, 64), W_ESUCCESS);
	assert_int_equal(wasi_random_get(&w, MEM - 10, 64), W_EFAULT);
	assert_int_equal(wasi_random_get(&w, 0, 0xffffffffu), W_EFAULT);
	/* sched_yield takes nothing of the guest's and writes nothing to it:
	 * success (Python's os.sched_yield, wasi-libc's thrd_yield), memory
	 * as it was */
	uint8_t *before = malloc(MEM);
	assert_non_null(before);
	memcpy(before, mem, MEM);
	for (int i = 0; i < 3; i++)
		assert_int_equal(wasi_sched_yield(&w), W_ESUCCESS);
	assert_memory_equal(before, mem, MEM);
	free(before);
	/* a 2 ms relative clock subscription: one clock event */
	uint8_t *s = mem + 2048;
	memset(s, 0, 48);
	s[0] = 42;
	uint64_t t = 2000000;
	memcpy(s + 24, &t, 8);
	uint32_t id = 1;
	memcpy(s + 16, &id, 4);
	assert_int_equal(wasi_poll_oneoff(&w, 2048, 4096, 1, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 1);
	assert_int_equal(mem[4096], 42);
	assert_int_equal(wasi_poll_oneoff(&w, 2048, 4096, 0, OUT), W_EINVAL);
	assert_int_equal(wasi_poll_oneoff(&w, 2048, 4096, 0xffffffffu, OUT), W_EINVAL);
	assert_int_equal(wasi_poll_oneoff(&w, MEM - 40, 4096, 1, OUT), W_EFAULT);
	assert_int_equal(wasi_poll_oneoff(&w, 2048, MEM - 8, 1, OUT), W_EFAULT);
	/* an fd subscription on a descriptor never given: an error event */
	s[8] = 1;
	id = 99;
	memcpy(s + 16, &id, 4);
	assert_int_equal(wasi_poll_oneoff(&w, 2048, 4096, 1, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 1);
	assert_int_equal(mem[4096 + 8], W_EBADF);
	assert_int_equal(wasi_sock_recv(&w, 0, IOV, 1, 0, OUT, OUT + 4), W_ENOTSUP);
	assert_int_equal(wasi_sock_send(&w, 1, IOV, 1, 0, OUT), W_ENOTSUP);
	assert_int_equal(wasi_sock_accept(&w, 3, 0, OUT), W_ENOTSUP);
	assert_int_equal(wasi_sock_shutdown(&w, 1, 0), W_ENOTSUP);
	assert_int_equal(wasi_proc_raise(&w, 9), W_ENOSYS);
	wasi_release(&w);
}

/* the fd_* calls not covered above, honest and hostile */
static void descriptor_calls(void **state)
{
	(void)state;
	struct wasi w;
	host(&w, WASI_RESOLVE_OPENAT2);
	uint32_t fd;
	assert_int_equal(open_(&w, 3, "sub/rw.txt", W_OFLAG_CREAT | W_OFLAG_TRUNC,
			       W_RIGHT_FD_READ | W_RIGHT_FD_WRITE, &fd), W_ESUCCESS);
	/* pwrite at 10, pread it back; offsets past what a file can hold */
	uint32_t b = BUF, l = 4;
	memcpy(mem + BUF, "wxyz", 4);
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &l, 4);
	assert_int_equal(wasi_fd_pwrite(&w, fd, IOV, 1, 10, OUT), W_ESUCCESS);
	assert_int_equal(wasi_fd_pwrite(&w, fd, IOV, 1, 1ull << 63, OUT), W_EINVAL);
	memset(mem + BUF, 0, 4);
	assert_int_equal(wasi_fd_pread(&w, fd, IOV, 1, 10, OUT), W_ESUCCESS);
	assert_memory_equal(mem + BUF, "wxyz", 4);
	assert_int_equal(wasi_fd_pread(&w, fd, IOV, 0x7fffffff, 0, OUT), W_EINVAL);
	/* seek and tell */
	assert_int_equal(wasi_fd_seek(&w, fd, 3, 0, OUT), W_ESUCCESS);
	assert_int_equal(wasi_fd_tell(&w, fd, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 3);
	assert_int_equal(wasi_fd_seek(&w, fd, (uint64_t)-100, 0, OUT), W_EINVAL);
	assert_int_equal(wasi_fd_tell(&w, fd, MEM - 4), W_EFAULT);
	/* sizes, stats, times, flags */
	assert_int_equal(wasi_fd_filestat_set_size(&w, fd, 100), W_ESUCCESS);
	assert_int_equal(wasi_fd_filestat_get(&w, fd, OUT), W_ESUCCESS);
	uint64_t size;
	memcpy(&size, mem + OUT + 32, 8);
	assert_int_equal(size, 100);
	assert_int_equal(wasi_fd_filestat_get(&w, fd, MEM - 63), W_EFAULT);
	assert_int_equal(wasi_fd_filestat_set_size(&w, fd, UINT64_MAX), W_EINVAL);
	assert_int_equal(wasi_fd_filestat_set_times(&w, fd, 0, 1000000000ull, W_FST_MTIM), W_ESUCCESS);
	assert_int_equal(wasi_fd_filestat_get(&w, fd, OUT), W_ESUCCESS);
	uint64_t mtim;
	memcpy(&mtim, mem + OUT + 48, 8);
	assert_int_equal(mtim, 1000000000ull);
	assert_int_equal(wasi_fd_filestat_set_times(&w, fd, 0, 0, W_FST_MTIM | W_FST_MTIM_NOW), W_EINVAL);
	assert_int_equal(wasi_path_filestat_set_times(&w, 3, 0, PATH, put_path("sub/rw.txt"), 0, 0,
						      W_FST_ATIM_NOW), W_ESUCCESS);
	assert_int_equal(wasi_fd_fdstat_get(&w, fd, OUT), W_ESUCCESS);
	assert_int_equal(mem[OUT], W_FT_REG);
	assert_int_equal(wasi_fd_fdstat_get(&w, fd, MEM - 8), W_EFAULT);
	assert_int_equal(wasi_fd_fdstat_set_flags(&w, fd, W_FDFLAG_APPEND), W_ESUCCESS);
	assert_int_equal(wasi_fd_fdstat_get(&w, fd, OUT), W_ESUCCESS);
	assert_int_equal(mem[OUT + 2] & W_FDFLAG_APPEND, W_FDFLAG_APPEND);
	assert_int_equal(wasi_fd_fdstat_set_flags(&w, fd, 0x10), W_ENOTSUP);
	assert_int_equal(wasi_fd_advise(&w, fd, 0, 0, 9), W_EINVAL);
	assert_int_equal(wasi_fd_advise(&w, fd, 0, 0, 1), W_ESUCCESS);
	assert_int_equal(wasi_fd_allocate(&w, fd, 0, 200), W_ESUCCESS);
	assert_int_equal(wasi_fd_allocate(&w, fd, UINT64_MAX, 1), W_EINVAL);
	assert_int_equal(wasi_fd_datasync(&w, fd), W_ESUCCESS);
	assert_int_equal(wasi_fd_sync(&w, fd), W_ESUCCESS);
	assert_int_equal(wasi_fd_fdstat_set_rights(&w, fd, 0, 0), W_ESUCCESS);
	/* renumber: onto another descriptor; the old number is gone */
	uint32_t other;
	assert_int_equal(open_(&w, 3, "a.txt", 0, W_RIGHT_FD_READ, &other), W_ESUCCESS);
	assert_int_equal(wasi_fd_renumber(&w, fd, other), W_ESUCCESS);
	assert_int_equal(wasi_fd_filestat_get(&w, fd, OUT), W_EBADF);
	assert_int_equal(wasi_fd_filestat_get(&w, other, OUT), W_ESUCCESS);
	memcpy(&size, mem + OUT + 32, 8);
	assert_int_equal(size, 200);
	assert_int_equal(wasi_fd_renumber(&w, other, 4000), W_EBADF);
	/* a directory is not read or sought as a file */
	assert_int_equal(wasi_fd_read(&w, 3, IOV, 1, OUT), W_EISDIR);
	assert_int_equal(wasi_fd_seek(&w, 3, 0, 0, OUT), W_EBADF);
	/* readlink: the link's text, in a buffer inside memory only */
	assert_int_equal(wasi_path_readlink(&w, 3, PATH, put_path("link_rel"), BUF, 64, OUT), W_ESUCCESS);
	assert_int_equal(u32at(OUT), 14);
	assert_memory_equal(mem + BUF, "../outside.txt", 14);
	assert_int_equal(wasi_path_readlink(&w, 3, PATH, put_path("link_rel"), MEM - 4, 64, OUT), W_EFAULT);
	assert_int_equal(wasi_path_readlink(&w, 3, PATH, put_path("../outside.txt"), BUF, 64, OUT),
			 W_ENOTCAPABLE);
	assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("sub/rw.txt")), W_ESUCCESS);
	wasi_release(&w);
}

/* n bytes from BUF to guest fd (at off, with pwrite): the errno; the
 * count written in *done */
static uint32_t write_n(struct wasi *w, uint32_t fd, uint32_t n, bool at, uint64_t off, uint32_t *done)
{
	uint32_t b = BUF;
	memcpy(mem + IOV, &b, 4);
	memcpy(mem + IOV + 4, &n, 4);
	memset(mem + BUF, 'x', n);
	uint32_t e = at ? wasi_fd_pwrite(w, fd, IOV, 1, off, OUT) : wasi_fd_write(w, fd, IOV, 1, OUT);
	*done = e ? 0 : u32at(OUT);
	return e;
}

static off_t size_of(const char *name)
{
	char p[256];
	struct stat sb;
	snprintf(p, sizeof(p), "%s/guest/%s", tmpl, name);
	return stat(p, &sb) == 0 ? sb.st_size : -1;
}

/* --disk: what the guest's files grow by, in all, past the cap is ENOSPC
 * (a write that half fits is short, as on a full disk); a rewrite, a
 * second descriptor, a file removed or replaced frees what it held; what
 * a file held before the run is not counted */
static void disk_cap_counts_growth(void **state)
{
	(void)state;
	struct wasi w;
	uint32_t f1, f2, f3, again, fd, n;
	host(&w, wasi_resolver_probe());
	w.disk_cap = 100000;
	const uint32_t NEW = W_OFLAG_CREAT | W_OFLAG_TRUNC;
	assert_int_equal(open_(&w, 3, "d1", NEW, W_RIGHT_FD_WRITE, &f1), W_ESUCCESS);
	assert_int_equal(write_n(&w, f1, 60000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 60000);
	assert_int_equal(open_(&w, 3, "d2", NEW, W_RIGHT_FD_WRITE, &f2), W_ESUCCESS);
	assert_int_equal(write_n(&w, f2, 60000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 40000);
	assert_int_equal(write_n(&w, f2, 1, false, 0, &n), W_ENOSPC);
	assert_int_equal(size_of("d2"), 40000);
	assert_int_equal(w.disk_used, 100000);
	/* overwriting in place is no growth */
	assert_int_equal(write_n(&w, f1, 1000, true, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 1000);
	/* nor a second descriptor of the same file */
	assert_int_equal(open_(&w, 3, "d1", 0, W_RIGHT_FD_WRITE, &again), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	assert_int_equal(wasi_fd_close(&w, again), W_ESUCCESS);
	/* past the end by pwrite, by a size, by an allocation */
	assert_int_equal(write_n(&w, f1, 1, true, 70000, &n), W_ENOSPC);
	assert_int_equal(wasi_fd_filestat_set_size(&w, f1, 60001), W_ENOSPC);
	assert_int_equal(wasi_fd_allocate(&w, f1, 59000, 2000), W_ENOSPC);
	assert_int_equal(size_of("d1"), 60000);
	/* shrinking frees; growing back is counted */
	assert_int_equal(wasi_fd_filestat_set_size(&w, f1, 10000), W_ESUCCESS);
	assert_int_equal(w.disk_used, 50000);
	assert_int_equal(wasi_fd_allocate(&w, f1, 0, 60001), W_ENOSPC);
	assert_int_equal(wasi_fd_allocate(&w, f1, 0, 60000), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	/* rewritten with O_TRUNC: its old bytes are free */
	assert_int_equal(open_(&w, 3, "d2", NEW, W_RIGHT_FD_WRITE, &fd), W_ESUCCESS);
	assert_int_equal(w.disk_used, 60000);
	assert_int_equal(write_n(&w, fd, 40000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 40000);
	assert_int_equal(write_n(&w, fd, 1, false, 0, &n), W_ENOSPC);
	/* removed: free once no descriptor holds it */
	assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("d2")), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	assert_int_equal(wasi_fd_close(&w, f2), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	assert_int_equal(wasi_fd_close(&w, fd), W_ESUCCESS);
	assert_int_equal(w.disk_used, 60000);
	assert_int_equal(open_(&w, 3, "d3", NEW, W_RIGHT_FD_WRITE, &f3), W_ESUCCESS);
	assert_int_equal(write_n(&w, f3, 40000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(write_n(&w, f3, 1, false, 0, &n), W_ENOSPC);
	/* renamed onto itself: still there */
	memcpy(mem + PATH + 100, "d3", 2);
	assert_int_equal(wasi_path_rename(&w, 3, PATH, put_path("d3"), 3, PATH + 100, 2), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	/* replaced by a rename: free (once closed) */
	memcpy(mem + PATH + 100, "d1", 2);
	assert_int_equal(wasi_path_rename(&w, 3, PATH, put_path("d3"), 3, PATH + 100, 2), W_ESUCCESS);
	assert_int_equal(wasi_fd_close(&w, f1), W_ESUCCESS);
	assert_int_equal(w.disk_used, 40000);
	/* a file from before the run: rewritten up to its old size free */
	assert_int_equal(open_(&w, 3, "a.txt", NEW, W_RIGHT_FD_WRITE, &fd), W_ESUCCESS);
	assert_int_equal(w.disk_used, 40000);
	assert_int_equal(write_n(&w, fd, 5, false, 0, &n), W_ESUCCESS);
	assert_int_equal(w.disk_used, 40000);
	assert_int_equal(write_n(&w, fd, 60000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 60000);
	assert_int_equal(write_n(&w, fd, 1, false, 0, &n), W_ENOSPC);
	/* in append mode, counted from the end */
	assert_int_equal(wasi_fd_close(&w, fd), W_ESUCCESS);
	assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("a.txt")), W_ESUCCESS);
	assert_int_equal(w.disk_used, 40000);
	assert_int_equal(wasi_fd_fdstat_set_flags(&w, f3, W_FDFLAG_APPEND), W_ESUCCESS);
	assert_int_equal(write_n(&w, f3, 60000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 60000);
	assert_int_equal(w.disk_used, 100000);
	assert_int_equal(write_n(&w, f3, 1, true, 0, &n), W_ENOSPC);
	char p[256];
	snprintf(p, sizeof(p), "%s/guest/a.txt", tmpl), put_file(p, "hello");
	assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("d1")), W_ESUCCESS);
	assert_int_equal(w.disk_used, 100000);
	assert_int_equal(wasi_fd_close(&w, f3), W_ESUCCESS);
	assert_int_equal(w.disk_used, 0);
	wasi_release(&w);
	/* without a cap nothing is counted */
	host(&w, wasi_resolver_probe());
	assert_int_equal(open_(&w, 3, "d4", NEW, W_RIGHT_FD_WRITE, &fd), W_ESUCCESS);
	assert_int_equal(write_n(&w, fd, 200000, false, 0, &n), W_ESUCCESS);
	assert_int_equal(n, 200000);
	assert_int_equal(w.disk_used, 0);
	assert_int_equal(wasi_path_unlink_file(&w, 3, PATH, put_path("d4")), W_ESUCCESS);
	wasi_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(resolver_probe_finds_openat2),
		cmocka_unit_test(honest_paths_work),
		cmocka_unit_test(escapes_are_refused),
		cmocka_unit_test(nul_bytes_and_lengths),
		cmocka_unit_test(read_only_tree),
		cmocka_unit_test(changes_stay_inside),
		cmocka_unit_test(iovecs_are_checked),
		cmocka_unit_test(args_and_environment),
		cmocka_unit_test(directories_list),
		cmocka_unit_test(clocks_random_poll_sockets),
		cmocka_unit_test(descriptor_calls),
		cmocka_unit_test(disk_cap_counts_growth),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
