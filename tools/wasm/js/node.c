/*
 * The JavaScript guest of the WebAssembly backend: Duktape (Debian's
 * source) with a small Node-like surface, compiled to wasm32-wasi and run
 * under our WASI host like python.wasm.  Everything here is inside the
 * WebAssembly sandbox: it can do only what the host's imports allow.
 *
 *   node SCRIPT ARG...     node -e CODE ARG...     node [-] ARG... (stdin)
 *
 * (sandlock's --runtime wasm has checked the command line.)  The natives
 * below are the object `sl` given to prelude.js, which builds console,
 * process, require('fs' | 'readline' | 'path' | 'util' | 'os' | './file'),
 * the timers and the event loop from them.  An uncaught error prints its
 * stack on stderr and exits 1, as Node does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "duktape.h"

#include "prelude.h" /* static const char prelude_js[] (build: from prelude.js) */

/* ---- stdout: buffered (flushed before stderr, a read of stdin, a sleep,
 * and at exit), stderr unbuffered ---- */
static char obuf[1 << 16];
static size_t olen;

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return; /* a closed pipe: what is lost is lost, as in Node */
		}
		p += w;
		n -= (size_t)w;
	}
}

static void flush_out(void)
{
	write_all(1, obuf, olen);
	olen = 0;
}

static void out(int fd, const char *p, size_t n)
{
	if (fd != 1) {
		flush_out();
		write_all(fd, p, n);
		return;
	}
	if (olen + n > sizeof(obuf))
		flush_out();
	if (n >= sizeof(obuf)) {
		write_all(1, p, n);
		return;
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

static void leave(int code)
{
	flush_out();
	exit(code);
}

/* ---- errors as Node names them ---- */
static const struct {
	int e;
	const char *code, *text;
} errnames[] = {
	{ENOENT, "ENOENT", "no such file or directory"},
	{EACCES, "EACCES", "permission denied"},
	{EPERM, "EPERM", "operation not permitted"},
	{EEXIST, "EEXIST", "file already exists"},
	{ENOTDIR, "ENOTDIR", "not a directory"},
	{EISDIR, "EISDIR", "illegal operation on a directory"},
	{ENOTEMPTY, "ENOTEMPTY", "directory not empty"},
	{EROFS, "EROFS", "read-only file system"},
	{EBADF, "EBADF", "bad file descriptor"},
	{EXDEV, "EXDEV", "cross-device link not permitted"},
	{ELOOP, "ELOOP", "too many symbolic links encountered"},
	{ENOSPC, "ENOSPC", "no space left on device"},
	{EFBIG, "EFBIG", "file too large"},
	{ENOTCAPABLE, "ENOTCAPABLE", "capabilities insufficient"},
};

static duk_ret_t throw_errno(duk_context *ctx, int e, const char *syscall, const char *path)
{
	const char *code = "EIO", *text = strerror(e);
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++) {
		if (errnames[i].e == e) {
			code = errnames[i].code;
			text = errnames[i].text;
		}
	}
	if (path)
		duk_push_error_object(ctx, DUK_ERR_ERROR, "%s: %s, %s '%s'", code, text, syscall, path);
	else
		duk_push_error_object(ctx, DUK_ERR_ERROR, "%s: %s, %s", code, text, syscall);
	duk_push_string(ctx, code);
	duk_put_prop_string(ctx, -2, "code");
	duk_push_int(ctx, -e);
	duk_put_prop_string(ctx, -2, "errno");
	duk_push_string(ctx, syscall);
	duk_put_prop_string(ctx, -2, "syscall");
	if (path) {
		duk_push_string(ctx, path);
		duk_put_prop_string(ctx, -2, "path");
	}
	return duk_throw(ctx);
}

/* ---- natives ---- */

/* write(fd, string) */
static duk_ret_t n_write(duk_context *ctx)
{
	int fd = duk_require_int(ctx, 0);
	duk_size_t n;
	const char *s = duk_to_lstring(ctx, 1, &n);
	out(fd == 2 ? 2 : 1, s, n);
	return 0;
}

static duk_ret_t n_flush(duk_context *ctx)
{
	(void)ctx;
	flush_out();
	return 0;
}

/* stdin, read by us (lines and chunks from one buffer) */
static char *ibuf;
static size_t ilen, icap;
static int ieof;

static int fill(void)
{
	if (ieof)
		return 0;
	flush_out(); /* a worker's answer goes out before it waits */
	if (icap - ilen < 65536) {
		size_t c = icap ? icap * 2 : 131072;
		char *b = realloc(ibuf, c);
		if (!b)
			return -1;
		ibuf = b;
		icap = c;
	}
	ssize_t r;
	do
		r = read(0, ibuf + ilen, icap - ilen);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		ieof = 1;
		return 0;
	}
	ilen += (size_t)r;
	return 1;
}

static void take(duk_context *ctx, size_t n, size_t skip)
{
	duk_push_lstring(ctx, ibuf, n);
	memmove(ibuf, ibuf + n + skip, ilen - n - skip);
	ilen -= n + skip;
}

/* readLine(): the next line of stdin without its "\n" (and "\r"), or null at
 * the end */
static duk_ret_t n_read_line(duk_context *ctx)
{
	size_t scanned = 0;
	for (;;) {
		char *nl = ilen > scanned ? memchr(ibuf + scanned, '\n', ilen - scanned) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - ibuf);
			size_t cr = n && ibuf[n - 1] == '\r';
			take(ctx, n - cr, 1 + cr);
			return 1;
		}
		scanned = ilen;
		int f = fill();
		if (f < 0)
			return duk_error(ctx, DUK_ERR_RANGE_ERROR, "out of memory reading stdin");
		if (!f)
			break;
	}
	if (!ilen)
		return duk_push_null(ctx), 1;
	take(ctx, ilen, 0);
	return 1;
}

/* a UTF-8 sequence cut at the end of the buffer stays for the next chunk */
static size_t whole_utf8(const char *b, size_t n)
{
	size_t i = n, back = 0;
	while (i > 0 && back < 4 && ((unsigned char)b[i - 1] & 0xc0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0)
		return n;
	unsigned char c = (unsigned char)b[i - 1];
	size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	return need > back + 1 ? i - 1 : n;
}

/* readChunk(): what stdin has now (waiting for some), or null at the end */
static duk_ret_t n_read_chunk(duk_context *ctx)
{
	size_t n = ilen ? whole_utf8(ibuf, ilen) : 0;
	while (!n) {
		int f = fill();
		if (f < 0)
			return duk_error(ctx, DUK_ERR_RANGE_ERROR, "out of memory reading stdin");
		if (!f) {
			if (!ilen)
				return duk_push_null(ctx), 1;
			n = ilen;
			break;
		}
		n = whole_utf8(ibuf, ilen);
	}
	take(ctx, n, 0);
	return 1;
}

/* readFile(path | 0): the whole file (stdin for 0) as a string */
static duk_ret_t n_read_file(duk_context *ctx)
{
	if (duk_is_number(ctx, 0)) {
		if (duk_get_int(ctx, 0) != 0)
			return throw_errno(ctx, EBADF, "read", NULL);
		while (fill() > 0)
			;
		take(ctx, ilen, 0);
		return 1;
	}
	const char *path = duk_require_string(ctx, 0);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return throw_errno(ctx, errno, "open", path);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return throw_errno(ctx, EISDIR, "read", NULL);
	}
	size_t cap = 65536, len = 0;
	char *b = malloc(cap);
	for (;;) {
		if (!b) {
			close(fd);
			return duk_error(ctx, DUK_ERR_RANGE_ERROR, "out of memory reading %s", path);
		}
		ssize_t r = read(fd, b + len, cap - len);
		if (r < 0) {
			int e = errno;
			free(b);
			close(fd);
			return throw_errno(ctx, e, "read", NULL);
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len == cap) {
			char *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	close(fd);
	duk_push_lstring(ctx, b, len);
	free(b);
	return 1;
}

/* writeFile(path, string, append) */
static duk_ret_t n_write_file(duk_context *ctx)
{
	const char *path = duk_require_string(ctx, 0);
	duk_size_t n;
	const char *s = duk_to_lstring(ctx, 1, &n);
	int fd = open(path, O_WRONLY | O_CREAT | (duk_to_boolean(ctx, 2) ? O_APPEND : O_TRUNC), 0666);
	if (fd < 0)
		return throw_errno(ctx, errno, "open", path);
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			int e = errno;
			close(fd);
			return throw_errno(ctx, e, "write", NULL);
		}
		s += w;
		n -= (size_t)w;
	}
	close(fd);
	return 0;
}

static duk_ret_t n_readdir(duk_context *ctx)
{
	const char *path = duk_require_string(ctx, 0);
	DIR *d = opendir(path);
	if (!d)
		return throw_errno(ctx, errno, "scandir", path);
	duk_push_array(ctx);
	duk_uarridx_t i = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		duk_push_string(ctx, e->d_name);
		duk_put_prop_index(ctx, -2, i++);
	}
	closedir(d);
	return 1;
}

/* stat(path, follow) -> {type, size, mtimeMs, mode} */
static duk_ret_t n_stat(duk_context *ctx)
{
	const char *path = duk_require_string(ctx, 0);
	struct stat st;
	int follow = duk_to_boolean(ctx, 1);
	if ((follow ? stat(path, &st) : lstat(path, &st)) != 0)
		return throw_errno(ctx, errno, follow ? "stat" : "lstat", path);
	duk_push_object(ctx);
	duk_push_string(ctx, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "dir"
			     : S_ISLNK(st.st_mode) ? "link" : "other");
	duk_put_prop_string(ctx, -2, "type");
	duk_push_number(ctx, (double)st.st_size);
	duk_put_prop_string(ctx, -2, "size");
	duk_push_number(ctx, (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6);
	duk_put_prop_string(ctx, -2, "mtimeMs");
	return 1;
}

/* op(name, path[, path2]): mkdir, rmdir, unlink, rename, symlink, link */
static duk_ret_t n_op(duk_context *ctx)
{
	const char *op = duk_require_string(ctx, 0);
	const char *a = duk_require_string(ctx, 1);
	int r;
	if (!strcmp(op, "mkdir"))
		r = mkdir(a, 0777);
	else if (!strcmp(op, "rmdir"))
		r = rmdir(a);
	else if (!strcmp(op, "unlink"))
		r = unlink(a);
	else if (!strcmp(op, "rename"))
		r = rename(a, duk_require_string(ctx, 2));
	else if (!strcmp(op, "symlink")) /* (target, path): what the WASI host refuses */
		r = symlink(a, duk_require_string(ctx, 2));
	else if (!strcmp(op, "link"))
		r = link(a, duk_require_string(ctx, 2));
	else
		return duk_error(ctx, DUK_ERR_TYPE_ERROR, "unknown operation %s", op);
	if (r != 0)
		return throw_errno(ctx, errno, op, a);
	return 0;
}

static duk_ret_t n_sleep(duk_context *ctx)
{
	double ms = duk_to_number(ctx, 0);
	flush_out();
	if (ms > 0) {
		struct timespec t = {(time_t)(ms / 1e3), (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};
		while (nanosleep(&t, &t) != 0 && errno == EINTR)
			;
	}
	return 0;
}

/* milliseconds of the monotonic clock */
static duk_ret_t n_hrtime(duk_context *ctx)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	duk_push_number(ctx, (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6);
	return 1;
}

static duk_ret_t n_exit(duk_context *ctx)
{
	leave(duk_to_int(ctx, 0) & 0xff);
	return 0;
}

/* compile(source, filename): the source as a function expression, named
 * by filename in stacks */
static duk_ret_t n_compile(duk_context *ctx)
{
	duk_require_string(ctx, 0);
	duk_require_string(ctx, 1);
	duk_compile(ctx, DUK_COMPILE_FUNCTION);
	return 1;
}

/* ---- start ---- */
static void fatal(void *udata, const char *msg)
{
	(void)udata;
	flush_out();
	fprintf(stderr, "FATAL: %s\n", msg ? msg : "(no message)");
	exit(1);
}

/* prelude(sl) with the natives; then sl.main() runs the program */
static duk_ret_t start(duk_context *ctx, void *udata)
{
	char **argv = udata;
	duk_push_string(ctx, "prelude.js");
	duk_compile_lstring_filename(ctx, DUK_COMPILE_FUNCTION, prelude_js, sizeof(prelude_js) - 1);
	duk_push_object(ctx);
	static const duk_function_list_entry fns[] = {
		{"write", n_write, 2},       {"flush", n_flush, 0},      {"readLine", n_read_line, 0},
		{"readChunk", n_read_chunk, 0}, {"readFile", n_read_file, 1}, {"writeFile", n_write_file, 3},
		{"readdir", n_readdir, 1},   {"stat", n_stat, 2},        {"op", n_op, 3},
		{"sleep", n_sleep, 1},       {"hrtime", n_hrtime, 0},    {"exit", n_exit, 1},
		{"compile", n_compile, 2},   {NULL, NULL, 0},
	};
	duk_put_function_list(ctx, -1, fns);
	duk_push_array(ctx);
	for (duk_uarridx_t i = 0; argv[i]; i++) {
		duk_push_string(ctx, argv[i]);
		duk_put_prop_index(ctx, -2, i);
	}
	duk_put_prop_string(ctx, -2, "argv");
	extern char **environ;
	duk_push_object(ctx);
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		duk_push_string(ctx, eq + 1);
		duk_put_prop_lstring(ctx, -2, *e, (duk_size_t)(eq - *e));
	}
	duk_put_prop_string(ctx, -2, "env");
	duk_call(ctx, 1);
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	duk_context *ctx = duk_create_heap(NULL, NULL, NULL, NULL, fatal);
	if (!ctx) {
		fputs("node: cannot create the JavaScript heap\n", stderr);
		return 1;
	}
	/* the prelude runs the program and the event loop and exits; an error
	 * that reaches here (one in the prelude itself) is printed as Node would */
	if (duk_safe_call(ctx, start, argv, 0, 1) != DUK_EXEC_SUCCESS) {
		if (duk_is_error(ctx, -1) && duk_get_prop_string(ctx, -1, "stack"))
			duk_remove(ctx, -2);
		else
			duk_pop(ctx);
		duk_size_t n;
		const char *s = duk_safe_to_lstring(ctx, -1, &n);
		out(2, s, n);
		out(2, "\n", 1);
		leave(1);
	}
	leave(0);
}
