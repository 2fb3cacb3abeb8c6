/*
 * What an executable asks for at exec, read from its ELF program headers:
 * an executable whose static data (a big global array) is larger than
 * RLIMIT_DATA, or whose segments are larger than RLIMIT_AS, is killed by
 * the kernel inside execve (SIGSEGV past the point of no return) before it
 * runs a single instruction.  The supervisor reads this only for a program
 * that died so, to call it what it is: memory_limit.  Whether it is
 * dynamically linked tells which guard can reach it (guard.c).
 */
#include "internal.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The program headers of path, from its first page: false if it is not an
 * ELF file we can read, or they lie beyond (not worth more reads). */
struct elf_phdrs {
	unsigned char buf[4096];
	bool is64;
	uint64_t off, num, size;
};

static bool read_phdrs(const char *path, struct elf_phdrs *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = pread(fd, e->buf, sizeof(e->buf), 0);
	close(fd);
	if (n < (ssize_t)sizeof(Elf32_Ehdr) || memcmp(e->buf, ELFMAG, SELFMAG))
		return false;
	e->is64 = e->buf[EI_CLASS] == ELFCLASS64;
	if (e->is64) {
		if (n < (ssize_t)sizeof(Elf64_Ehdr))
			return false;
		Elf64_Ehdr eh;
		memcpy(&eh, e->buf, sizeof(eh));
		e->off = eh.e_phoff, e->num = eh.e_phnum, e->size = eh.e_phentsize;
	} else {
		Elf32_Ehdr eh;
		memcpy(&eh, e->buf, sizeof(eh));
		e->off = eh.e_phoff, e->num = eh.e_phnum, e->size = eh.e_phentsize;
	}
	return e->size >= (e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) &&
	       e->off + e->num * e->size <= (uint64_t)n;
}

/* The writable (data, bss) and all loadable bytes of path's segments, in
 * kB; false if it is not an ELF file we can read. */
bool sl_elf_sizes(const char *path, uint64_t *writable_kb, uint64_t *total_kb)
{
	*writable_kb = *total_kb = 0;
	struct elf_phdrs e;
	if (!read_phdrs(path, &e))
		return false;
	uint64_t w = 0, all = 0;
	for (uint64_t i = 0; i < e.num; i++) {
		uint64_t type, flags, memsz;
		if (e.is64) {
			Elf64_Phdr ph;
			memcpy(&ph, e.buf + e.off + i * e.size, sizeof(ph));
			type = ph.p_type, flags = ph.p_flags, memsz = ph.p_memsz;
		} else {
			Elf32_Phdr ph;
			memcpy(&ph, e.buf + e.off + i * e.size, sizeof(ph));
			type = ph.p_type, flags = ph.p_flags, memsz = ph.p_memsz;
		}
		if (type != PT_LOAD)
			continue;
		all += memsz;
		if (flags & PF_W)
			w += memsz;
	}
	*writable_kb = w / 1024;
	*total_kb = all / 1024;
	return true;
}

/* An interpreter (PT_INTERP) is what makes an executable load libc
 * dynamically, and so what an LD_PRELOAD library can reach. */
int sl_elf_dynamic(const char *path)
{
	struct elf_phdrs e;
	if (!read_phdrs(path, &e))
		return -1;
	for (uint64_t i = 0; i < e.num; i++) {
		uint32_t type; /* p_type comes first in both classes */
		memcpy(&type, e.buf + e.off + i * e.size, sizeof(type));
		if (type == PT_INTERP)
			return 1;
	}
	return 0;
}
