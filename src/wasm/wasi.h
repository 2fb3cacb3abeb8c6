/*
 * The WASI (preview1) host of the WebAssembly backend: what a wasm32-wasi
 * guest (CPython built by tools/wasm/cpython.sh) may ask of the system.
 *
 * Deny by default.  The guest sees its arguments, the environment it was
 * given, descriptors 0/1/2, and the directories it was given (preopens);
 * no sockets, no processes, no other path.  Every pointer and length comes
 * from the guest and is checked against its memory before use; every path
 * is resolved beneath a directory descriptor of ours without following any
 * symbolic link (paths.c), so what the guest names cannot leave its tree.
 *
 * The functions take and return what the wasm import does (guest
 * addresses as uint32_t, a WASI errno as the result), so they are tested
 * directly (tests/unit/test_wasi.c) and bound to a module by glue.c.
 */
#ifndef SL_WASI_H
#define SL_WASI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* WASI errno values (wasi_snapshot_preview1) */
enum {
	W_ESUCCESS = 0, W_E2BIG = 1, W_EACCES = 2, W_EAGAIN = 6, W_EBADF = 8,
	W_EBUSY = 10, W_EDQUOT = 19, W_EEXIST = 20, W_EFAULT = 21, W_EFBIG = 22,
	W_EINTR = 27, W_EINVAL = 28, W_EIO = 29, W_EISDIR = 31, W_ELOOP = 32,
	W_EMFILE = 33, W_EMLINK = 34, W_ENAMETOOLONG = 37, W_ENFILE = 41,
	W_ENODEV = 43, W_ENOENT = 44, W_ENOMEM = 48, W_ENOSPC = 51, W_ENOSYS = 52,
	W_ENOTDIR = 54, W_ENOTEMPTY = 55, W_ENOTSOCK = 57, W_ENOTSUP = 58,
	W_ENOTTY = 59, W_ENXIO = 60, W_EOVERFLOW = 61, W_EPERM = 63, W_EPIPE = 64,
	W_ERANGE = 68, W_EROFS = 69, W_ESPIPE = 70, W_ETXTBSY = 74, W_EXDEV = 75,
	W_ENOTCAPABLE = 76,
};

/* file types */
enum {
	W_FT_UNKNOWN = 0, W_FT_BLOCK = 1, W_FT_CHAR = 2, W_FT_DIR = 3,
	W_FT_REG = 4, W_FT_SOCK_DGRAM = 5, W_FT_SOCK_STREAM = 6, W_FT_SYMLINK = 7,
};

#define W_OFLAG_CREAT 1u
#define W_OFLAG_DIRECTORY 2u
#define W_OFLAG_EXCL 4u
#define W_OFLAG_TRUNC 8u
#define W_FDFLAG_APPEND 1u
#define W_FDFLAG_NONBLOCK 4u
#define W_LOOKUP_FOLLOW 1u
#define W_RIGHT_FD_READ (1ull << 1)
#define W_RIGHT_FD_WRITE (1ull << 6)
#define W_RIGHT_FD_READDIR (1ull << 14)
#define W_RIGHTS_ALL 0x1fffffffull
#define W_FST_ATIM 1u
#define W_FST_ATIM_NOW 2u
#define W_FST_MTIM 4u
#define W_FST_MTIM_NOW 8u

/* how much one call may ask for: more is EINVAL (the kernel's IOV_MAX) */
#define WASI_IOV_MAX 1024
#define WASI_POLL_MAX 1024
#define WASI_PATH_MAX 4096
#define WASI_FD_MAX 4096

/* path resolution (paths.c): chosen once per host by wasi_resolver_probe */
enum wasi_resolver { WASI_RESOLVE_OPENAT2, WASI_RESOLVE_WALK };

struct wasi_fd {
	int host;            /* -1: free */
	bool ro;             /* beneath a read-only directory */
	bool dir;
	char *preopen;       /* the guest's name for a preopened directory */
	uint32_t file;       /* its entry in wasi.files, plus one; 0: not counted */
};

/* a regular file the guest wrote to, under --disk (disk.c): what it held
 * when first seen is not the run's; what it grew by since is */
struct wasi_file {
	uint64_t dev, ino;
	uint64_t base, cur;
};

struct wasi {
	/* the guest's linear memory, as of the current call */
	uint8_t *mem;
	uint64_t mem_size;
	char **argv, **envp; /* what the guest sees */
	int argc, envc;
	struct wasi_fd *fds;
	uint32_t nfds;
	enum wasi_resolver resolver;
	int exit_code;       /* proc_exit's, once wasi_proc_exit ran */
	/* --disk: the bytes the guest's files may grow by in all, and have */
	uint64_t disk_cap, disk_used; /* 0: no cap */
	struct wasi_file *files;
	uint32_t nfiles;
};

/* setup (fds.c) */
int wasi_init(struct wasi *w, char **argv, char **envp);
/* a directory the guest sees at guest_name; read-only or not.  0, or -1 with
 * errno. */
int wasi_preopen(struct wasi *w, const char *host_path, const char *guest_name, bool ro);
void wasi_release(struct wasi *w);
/* openat2 where the kernel lets us, else the component walk (paths.c) */
enum wasi_resolver wasi_resolver_probe(void);

/* --disk (disk.c) */
/* count f's file from now: its size when first seen (base, unless it is
 * already counted) is not the run's.  0, or a WASI errno. */
uint32_t wasi_disk_track(struct wasi *w, struct wasi_fd *f, uint64_t base);
/* how many of len bytes written at off fit under the cap */
uint64_t wasi_disk_fit(const struct wasi *w, const struct wasi_fd *f, uint64_t off, uint64_t len);
/* f's file is size bytes now */
void wasi_disk_set(struct wasi *w, const struct wasi_fd *f, uint64_t size);
/* its size as counted (0 for a file not counted) */
uint64_t wasi_disk_size(const struct wasi *w, const struct wasi_fd *f);
/* name beneath dirfd, if it is a counted file's last link: its entry plus
 * one, else 0; dropped once the name is removed or replaced (its bytes
 * are free again) */
uint32_t wasi_disk_find(const struct wasi *w, int dirfd, const char *name);
void wasi_disk_drop(struct wasi *w, uint32_t file);
/* f is about to be closed: the last descriptor of a removed file frees it */
void wasi_disk_closing(struct wasi *w, const struct wasi_fd *f);

/* guest memory: NULL unless [ptr, ptr+len) is inside it */
static inline uint8_t *wasi_mem(const struct wasi *w, uint32_t ptr, uint64_t len)
{
	if ((uint64_t)ptr + len > w->mem_size)
		return NULL;
	return w->mem + ptr;
}

/* errno -> WASI errno (fds.c) */
uint32_t wasi_errno(int e);

/* the imports (arguments as the module passes them) */
uint32_t wasi_args_get(struct wasi *w, uint32_t argv, uint32_t buf);
uint32_t wasi_args_sizes_get(struct wasi *w, uint32_t argc, uint32_t size);
uint32_t wasi_environ_get(struct wasi *w, uint32_t envp, uint32_t buf);
uint32_t wasi_environ_sizes_get(struct wasi *w, uint32_t envc, uint32_t size);

uint32_t wasi_clock_res_get(struct wasi *w, uint32_t id, uint32_t res);
uint32_t wasi_clock_time_get(struct wasi *w, uint32_t id, uint64_t precision, uint32_t out);
uint32_t wasi_random_get(struct wasi *w, uint32_t buf, uint32_t len);
uint32_t wasi_sched_yield(struct wasi *w);
uint32_t wasi_poll_oneoff(struct wasi *w, uint32_t in, uint32_t out, uint32_t n, uint32_t nevents);
uint32_t wasi_proc_raise(struct wasi *w, uint32_t sig);

uint32_t wasi_fd_advise(struct wasi *w, uint32_t fd, uint64_t off, uint64_t len, uint32_t advice);
uint32_t wasi_fd_allocate(struct wasi *w, uint32_t fd, uint64_t off, uint64_t len);
uint32_t wasi_fd_close(struct wasi *w, uint32_t fd);
uint32_t wasi_fd_datasync(struct wasi *w, uint32_t fd);
uint32_t wasi_fd_sync(struct wasi *w, uint32_t fd);
uint32_t wasi_fd_fdstat_get(struct wasi *w, uint32_t fd, uint32_t out);
uint32_t wasi_fd_fdstat_set_flags(struct wasi *w, uint32_t fd, uint32_t flags);
uint32_t wasi_fd_fdstat_set_rights(struct wasi *w, uint32_t fd, uint64_t base, uint64_t inh);
uint32_t wasi_fd_filestat_get(struct wasi *w, uint32_t fd, uint32_t out);
uint32_t wasi_fd_filestat_set_size(struct wasi *w, uint32_t fd, uint64_t size);
uint32_t wasi_fd_filestat_set_times(struct wasi *w, uint32_t fd, uint64_t atim, uint64_t mtim, uint32_t flags);
uint32_t wasi_fd_pread(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint64_t off, uint32_t nread);
uint32_t wasi_fd_pwrite(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint64_t off, uint32_t nwritten);
uint32_t wasi_fd_read(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t nread);
uint32_t wasi_fd_write(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t nwritten);
uint32_t wasi_fd_prestat_get(struct wasi *w, uint32_t fd, uint32_t out);
uint32_t wasi_fd_prestat_dir_name(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len);
uint32_t wasi_fd_readdir(struct wasi *w, uint32_t fd, uint32_t buf, uint32_t len, uint64_t cookie, uint32_t used);
uint32_t wasi_fd_renumber(struct wasi *w, uint32_t fd, uint32_t to);
uint32_t wasi_fd_seek(struct wasi *w, uint32_t fd, uint64_t off, uint32_t whence, uint32_t newoff);
uint32_t wasi_fd_tell(struct wasi *w, uint32_t fd, uint32_t out);

uint32_t wasi_path_create_directory(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len);
uint32_t wasi_path_filestat_get(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t path, uint32_t len, uint32_t out);
uint32_t wasi_path_filestat_set_times(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t path, uint32_t len,
				      uint64_t atim, uint64_t mtim, uint32_t fst);
uint32_t wasi_path_link(struct wasi *w, uint32_t ofd, uint32_t oflags, uint32_t opath, uint32_t olen,
			uint32_t nfd, uint32_t npath, uint32_t nlen);
uint32_t wasi_path_open(struct wasi *w, uint32_t fd, uint32_t dirflags, uint32_t path, uint32_t len,
			uint32_t oflags, uint64_t rights, uint64_t inh, uint32_t fdflags, uint32_t out);
uint32_t wasi_path_readlink(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len, uint32_t buf,
			    uint32_t buflen, uint32_t used);
uint32_t wasi_path_remove_directory(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len);
uint32_t wasi_path_rename(struct wasi *w, uint32_t fd, uint32_t opath, uint32_t olen, uint32_t nfd,
			  uint32_t npath, uint32_t nlen);
uint32_t wasi_path_symlink(struct wasi *w, uint32_t opath, uint32_t olen, uint32_t fd, uint32_t npath,
			   uint32_t nlen);
uint32_t wasi_path_unlink_file(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len);

uint32_t wasi_sock_accept(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t out);
uint32_t wasi_sock_recv(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t flags,
			uint32_t nread, uint32_t oflags);
uint32_t wasi_sock_send(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t flags,
			uint32_t nwritten);
uint32_t wasi_sock_shutdown(struct wasi *w, uint32_t fd, uint32_t how);

/* internal to the host (shared by its files) */
struct wasi_fd *wasi_fd_get(struct wasi *w, uint32_t fd);
int wasi_fd_add(struct wasi *w, int host, bool ro, bool dir, uint32_t *out);
/* the guest's path (ptr, len) as a C string in buf: 0, or a WASI errno
 * (EFAULT out of memory, EINVAL with a NUL inside, ENAMETOOLONG) */
uint32_t wasi_path_copy(const struct wasi *w, uint32_t ptr, uint32_t len, char *buf, size_t size);
/* resolve path beneath dirfd, no symlink followed, with open(2) flags:
 * a new descriptor, or -1 with errno (EXDEV / ELOOP for an escape) */
int wasi_resolve(enum wasi_resolver r, int dirfd, const char *path, int flags, unsigned mode);
/* the directory holding path's last component (a new O_PATH descriptor)
 * and that component in *last (a pointer into path, which is modified):
 * -1 with errno; "." and ".." as the last component are EINVAL */
int wasi_resolve_parent(enum wasi_resolver r, int dirfd, char *path, const char **last);

#endif
