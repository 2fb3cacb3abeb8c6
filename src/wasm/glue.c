/*
 * The WASI host bound to a module made by wabt's wasm2c (1.0.32): the
 * imports as the generated C calls them, the memory limit, the exit.
 * Compiled with -include MODULE.h -DWASM_MODULE=NAME (tools/wasm/build.sh).
 */
#include "wasi.h"
#include "glue.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wasm-rt.h"
#include "wasm-rt-impl.h"

struct Z_wasi_snapshot_preview1_instance_t {
	struct wasi w;
	wasm_rt_memory_t *mem;
};

typedef uint32_t u32;
typedef uint64_t u64;

/* The module's memory.grow, counted: a refused one means the guest ran
 * out of its --mem, whatever it did with the MemoryError.  (The runtime's
 * own is renamed when wasm-rt-impl.c is compiled.)  The executable runs
 * one instance, once: a flag of the process is the instance's. */
static volatile sig_atomic_t grow_refused;
uint32_t sl_wasm_rt_grow_memory_impl(wasm_rt_memory_t *m, uint32_t delta);
uint32_t wasm_rt_grow_memory(wasm_rt_memory_t *m, uint32_t delta)
{
	uint32_t r = sl_wasm_rt_grow_memory_impl(m, delta);
	if (r == (uint32_t)-1)
		grow_refused = 1;
	return r;
}

void sl_wasm_finish(int code)
{
	if (grow_refused) {
		/* the supervisor's memory_limit: a signal the guest cannot
		 * send (WASI has no kill) */
		signal(SL_WASM_MEMORY_SIGNAL, SIG_DFL);
		raise(SL_WASM_MEMORY_SIGNAL);
	}
	_exit(code);
}

static inline struct wasi *host_of(struct Z_wasi_snapshot_preview1_instance_t *i)
{
	i->w.mem = i->mem->data;
	i->w.mem_size = i->mem->size;
	return &i->w;
}

#define UNPAREN(...) __VA_ARGS__
#define W(name, decl, args)                                                              \
	u32 Z_wasi_snapshot_preview1Z_##name(struct Z_wasi_snapshot_preview1_instance_t *i UNPAREN decl); \
	u32 Z_wasi_snapshot_preview1Z_##name(struct Z_wasi_snapshot_preview1_instance_t *i UNPAREN decl) \
	{                                                                                \
		return wasi_##name(host_of(i) UNPAREN args);                                \
	}

W(args_get, (, u32 a, u32 b), (, a, b))
W(args_sizes_get, (, u32 a, u32 b), (, a, b))
W(environ_get, (, u32 a, u32 b), (, a, b))
W(environ_sizes_get, (, u32 a, u32 b), (, a, b))
W(clock_res_get, (, u32 a, u32 b), (, a, b))
W(clock_time_get, (, u32 a, u64 b, u32 c), (, a, b, c))
W(random_get, (, u32 a, u32 b), (, a, b))
W(sched_yield, (), ())
W(poll_oneoff, (, u32 a, u32 b, u32 c, u32 d), (, a, b, c, d))
W(proc_raise, (, u32 a), (, a))
W(fd_advise, (, u32 a, u64 b, u64 c, u32 d), (, a, b, c, d))
W(fd_allocate, (, u32 a, u64 b, u64 c), (, a, b, c))
W(fd_close, (, u32 a), (, a))
W(fd_datasync, (, u32 a), (, a))
W(fd_sync, (, u32 a), (, a))
W(fd_fdstat_get, (, u32 a, u32 b), (, a, b))
W(fd_fdstat_set_flags, (, u32 a, u32 b), (, a, b))
W(fd_fdstat_set_rights, (, u32 a, u64 b, u64 c), (, a, b, c))
W(fd_filestat_get, (, u32 a, u32 b), (, a, b))
W(fd_filestat_set_size, (, u32 a, u64 b), (, a, b))
W(fd_filestat_set_times, (, u32 a, u64 b, u64 c, u32 d), (, a, b, c, d))
W(fd_pread, (, u32 a, u32 b, u32 c, u64 d, u32 e), (, a, b, c, d, e))
W(fd_pwrite, (, u32 a, u32 b, u32 c, u64 d, u32 e), (, a, b, c, d, e))
W(fd_read, (, u32 a, u32 b, u32 c, u32 d), (, a, b, c, d))
W(fd_write, (, u32 a, u32 b, u32 c, u32 d), (, a, b, c, d))
W(fd_prestat_get, (, u32 a, u32 b), (, a, b))
W(fd_prestat_dir_name, (, u32 a, u32 b, u32 c), (, a, b, c))
W(fd_readdir, (, u32 a, u32 b, u32 c, u64 d, u32 e), (, a, b, c, d, e))
W(fd_renumber, (, u32 a, u32 b), (, a, b))
W(fd_seek, (, u32 a, u64 b, u32 c, u32 d), (, a, b, c, d))
W(fd_tell, (, u32 a, u32 b), (, a, b))
W(path_create_directory, (, u32 a, u32 b, u32 c), (, a, b, c))
W(path_filestat_get, (, u32 a, u32 b, u32 c, u32 d, u32 e), (, a, b, c, d, e))
W(path_filestat_set_times, (, u32 a, u32 b, u32 c, u32 d, u64 e, u64 f, u32 g), (, a, b, c, d, e, f, g))
W(path_link, (, u32 a, u32 b, u32 c, u32 d, u32 e, u32 f, u32 g), (, a, b, c, d, e, f, g))
W(path_open, (, u32 a, u32 b, u32 c, u32 d, u32 e, u64 f, u64 g, u32 h, u32 j), (, a, b, c, d, e, f, g, h, j))
W(path_readlink, (, u32 a, u32 b, u32 c, u32 d, u32 e, u32 f), (, a, b, c, d, e, f))
W(path_remove_directory, (, u32 a, u32 b, u32 c), (, a, b, c))
W(path_rename, (, u32 a, u32 b, u32 c, u32 d, u32 e, u32 f), (, a, b, c, d, e, f))
W(path_symlink, (, u32 a, u32 b, u32 c, u32 d, u32 e), (, a, b, c, d, e))
W(path_unlink_file, (, u32 a, u32 b, u32 c), (, a, b, c))
W(sock_accept, (, u32 a, u32 b, u32 c), (, a, b, c))
W(sock_recv, (, u32 a, u32 b, u32 c, u32 d, u32 e, u32 f), (, a, b, c, d, e, f))
W(sock_send, (, u32 a, u32 b, u32 c, u32 d, u32 e), (, a, b, c, d, e))
W(sock_shutdown, (, u32 a, u32 b), (, a, b))

void Z_wasi_snapshot_preview1Z_proc_exit(struct Z_wasi_snapshot_preview1_instance_t *i, u32 code);
void Z_wasi_snapshot_preview1Z_proc_exit(struct Z_wasi_snapshot_preview1_instance_t *i, u32 code)
{
	(void)i;
	sl_wasm_finish((int)(code & 0xff));
}

#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)
#define MOD(x) CAT3(Z_, WASM_MODULE, x)

int sl_wasm_run(struct wasi *w, uint32_t max_pages)
{
	static struct Z_wasi_snapshot_preview1_instance_t host;
	static MOD(_instance_t) inst;
	host.w = *w;
	wasm_rt_init();
	MOD(_init_module)();
	MOD(_instantiate)(&inst, &host);
	host.mem = MOD(Z_memory)(&inst);
	if (max_pages) {
		if (host.mem->pages > max_pages) {
			fprintf(stderr, "sandlock-wasm: the memory limit (%u pages) is below what the "
				"module starts with (%u pages)\n", max_pages, host.mem->pages);
			return 125;
		}
		host.mem->max_pages = max_pages;
	}
	wasm_rt_trap_t t = wasm_rt_impl_try();
	if (t == WASM_RT_TRAP_NONE) {
		MOD(Z__start)(&inst);
		sl_wasm_finish(0);
	}
	fprintf(stderr, "wasm trap: %s\n", wasm_rt_strerror(t));
	if (grow_refused)
		sl_wasm_finish(1);
	/* a crash, as a native interpreter's would be */
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	return 134;
}
