/* Loading code: only libraries the policy lets the program read.  A name
 * without a slash is looked for along the caller's own search list
 * (RPATH, LD_LIBRARY_PATH, RUNPATH, system directories): every file of
 * that name there must be readable, whichever of them the loader takes. */
#include "preload.h"
#include "cover.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int search_ok(const char *op, const char *file, const void *caller)
{
	Dl_info info;
	void *lm = NULL;
	if (!dladdr1(caller, &info, &lm, RTLD_DL_LINKMAP) || !lm)
		lm = RTLD_DEFAULT;
	Dl_serinfo size;
	if (dlinfo(lm, RTLD_DI_SERINFOSIZE, &size) != 0)
		return 0;
	Dl_serinfo *si = malloc(size.dls_size);
	if (!si)
		return 0;
	memcpy(si, &size, sizeof(size));
	int ok = 1;
	if (dlinfo(lm, RTLD_DI_SERINFO, si) == 0) {
		for (unsigned i = 0; ok && i < si->dls_cnt; i++) {
			char cand[PATH_MAX];
			const char *dir = si->dls_serpath[i].dls_name;
			if (strlen(dir) + strlen(file) + 2 > sizeof(cand))
				continue;
			strcpy(cand, dir);
			strcat(cand, "/");
			strcat(cand, file);
			if (sl_sys(SYS_faccessat, AT_FDCWD, (long)cand, F_OK, 0, 0, 0) == 0 &&
			    sl_check_at(op, AT_FDCWD, cand, 0, SL_READ) != 0)
				ok = 0;
		}
	}
	free(si);
	return ok;
}

static int dl_ok(const char *op, const char *file, const void *caller)
{
	sl_ensure();
	if (!file)
		return 1;	/* the program itself */
	if (strchr(file, '/'))
		return sl_check_at(op, AT_FDCWD, file, 0, SL_READ) == 0;
	void *h = REAL(dlopen)(file, RTLD_LAZY | RTLD_NOLOAD);
	if (h) {
		dlclose(h);
		return 1;	/* loaded already */
	}
	return search_ok(op, file, caller);
}

SL_EXPORT void *dlopen(const char *file, int mode)
{
	if (!dl_ok("dlopen", file, __builtin_return_address(0)))
		return NULL;
	return REAL(dlopen)(file, mode);
}

/* A new namespace gets a copy of libc without this layer in front of it:
 * only the program's own namespace is allowed. */
SL_EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	if (lmid != LM_ID_BASE) {
		sl_ensure();
		sl_refuse("dlmopen", file, EACCES);
		return NULL;
	}
	if (!dl_ok("dlmopen", file, __builtin_return_address(0)))
		return NULL;
	return REAL(dlmopen)(lmid, file, mode);
}

/* Looking a function up by name must not hand out libc's entry of a hooked
 * action (dlsym(dlopen("libc.so.6"), "__open64"), dlvsym(RTLD_NEXT,
 * "posix_spawn", "GLIBC_2.2.5")): a name libc exports for one of them
 * (sl_cover, generated from the installed libc) gives our definition.
 * RTLD_NEXT is relative to the caller, which libc finds by the return
 * address: for any other name the call goes on to libc's dlsym by a jump,
 * with the caller's return address in place (the stubs below). */
#define SL_REAL_ONE ((void *)1)	/* the stub's cue to jump to libc's */

void *sl_real_dlsym;
void *sl_real_dlvsym;

static const void *by_name(const char *name, const char *version)
{
	for (unsigned i = 0; name && i < sl_cover_count; i++)
		if (!strcmp(sl_cover[i].name, name) && (!version || !strcmp(sl_cover[i].version, version)))
			return sl_cover[i].ours;
	return NULL;
}

static void *ours_for(void *found)
{
	for (unsigned i = 0; found && i < sl_cover_count; i++)
		if (sl_cover_libc[i] == found)
			return (void *)sl_cover[i].ours;
	return found;
}

__attribute__((used)) void *sl_dlsym_pick(void *h, const char *name)
{
	sl_ensure();
	if (!sl_real_dlsym)
		return SL_REAL_ONE;
	if (h == RTLD_NEXT) {
		const void *o = by_name(name, NULL);
		return o ? (void *)o : SL_REAL_ONE;
	}
	return ours_for(((void *(*)(void *, const char *))sl_real_dlsym)(h, name));
}

__attribute__((used)) void *sl_dlvsym_pick(void *h, const char *name, const char *version)
{
	sl_ensure();
	if (!sl_real_dlvsym)
		return SL_REAL_ONE;
	if (h == RTLD_NEXT) {
		const void *o = by_name(name, version);
		return o ? (void *)o : SL_REAL_ONE;
	}
	return ours_for(((void *(*)(void *, const char *, const char *))sl_real_dlvsym)(h, name, version));
}

#if defined(__x86_64__)
/* three pushes keep the stack 16-byte aligned for the call */
#define SL_DL_STUB(name)                        \
	".text\n"                               \
	".globl " #name "\n"                     \
	".type " #name ", @function\n"           \
	#name ":\n"                              \
	"	endbr64\n"                       \
	"	pushq %rdi\n"                    \
	"	pushq %rsi\n"                    \
	"	pushq %rdx\n"                    \
	"	call sl_" #name "_pick\n"        \
	"	popq %rdx\n"                     \
	"	popq %rsi\n"                     \
	"	popq %rdi\n"                     \
	"	cmpq $1, %rax\n"                 \
	"	je 1f\n"                         \
	"	ret\n"                           \
	"1:	jmp *sl_real_" #name "(%rip)\n" \
	".size " #name ", .-" #name "\n"
#elif defined(__aarch64__)
#define SL_DL_STUB(name)                                \
	".text\n"                                       \
	".globl " #name "\n"                             \
	".type " #name ", %function\n"                   \
	#name ":\n"                                      \
	"	stp x29, x30, [sp, #-48]!\n"             \
	"	mov x29, sp\n"                           \
	"	stp x0, x1, [sp, #16]\n"                 \
	"	str x2, [sp, #32]\n"                     \
	"	bl sl_" #name "_pick\n"                  \
	"	cmp x0, #1\n"                            \
	"	b.eq 1f\n"                               \
	"	ldp x29, x30, [sp], #48\n"               \
	"	ret\n"                                   \
	"1:	ldp x0, x1, [sp, #16]\n"                 \
	"	ldr x2, [sp, #32]\n"                     \
	"	ldp x29, x30, [sp], #48\n"               \
	"	adrp x16, sl_real_" #name "\n"           \
	"	ldr x16, [x16, :lo12:sl_real_" #name "]\n" \
	"	br x16\n"                                \
	".size " #name ", .-" #name "\n"
#endif
__asm__(SL_DL_STUB(dlsym) SL_DL_STUB(dlvsym));

/* libc's dlsym and dlvsym, found without calling dlsym (ours): the first
 * object after this library in the load order that defines them (or, if
 * this library was loaded after libc, the first other one), looked up in
 * its GNU hash table (their default versions). */
struct find {
	const char *name;
	ElfW(Addr) self;
	int after_self;
	void *found, *before;
};

static void *elf_lookup(const struct dl_phdr_info *info, const char *name)
{
	const ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	const uint32_t *gnu = NULL;
	const ElfW(Half) *versym = NULL;
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		/* the loader has made most of these absolute; not everywhere */
		ElfW(Addr) p = dyn->d_un.d_ptr;
		if (p < info->dlpi_addr)
			p += info->dlpi_addr;
		switch (dyn->d_tag) {
		case DT_SYMTAB: sym = (const void *)p; break;
		case DT_STRTAB: str = (const void *)p; break;
		case DT_GNU_HASH: gnu = (const void *)p; break;
		case DT_VERSYM: versym = (const void *)p; break;
		}
	}
	if (!sym || !str || !gnu || !gnu[0])
		return NULL;
	uint32_t h = 5381;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = h * 33 + *c;
	uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
	const uint32_t *buckets = (const void *)((const ElfW(Addr) *)(gnu + 4) + bloom_size);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t i = buckets[h % nbuckets];
	if (i < symoffset)
		return NULL;
	for (;; i++) {
		uint32_t h2 = chain[i - symoffset];
		if ((h | 1) == (h2 | 1) && sym[i].st_shndx != SHN_UNDEF && !strcmp(name, str + sym[i].st_name) &&
		    (!versym || !(versym[i] & 0x8000)))
			return (void *)(info->dlpi_addr + sym[i].st_value);
		if (h2 & 1)
			return NULL;
	}
}

static int find_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct find *f = arg;
	if (info->dlpi_addr == f->self) {
		f->after_self = 1;
		return 0;
	}
	if (f->after_self)
		f->found = elf_lookup(info, f->name);
	else if (!f->before && info->dlpi_name && info->dlpi_name[0])
		f->before = elf_lookup(info, f->name);
	return f->found != NULL;
}

static void *find_real(const char *name, ElfW(Addr) self)
{
	struct find f = { name, self, 0, NULL, NULL };
	dl_iterate_phdr(find_one, &f);
	return f.found ? f.found : f.before;
}

void sl_find_dlsym(void)
{
	Dl_info me;
	if (!dladdr((void *)sl_find_dlsym, &me))
		return;
	sl_real_dlsym = find_real("dlsym", (ElfW(Addr))me.dli_fbase);
	sl_real_dlvsym = find_real("dlvsym", (ElfW(Addr))me.dli_fbase);
}
