/*
 * What an executable asks for at exec, read from its ELF program headers:
 * an executable whose static data (a big global array) is larger than
 * RLIMIT_DATA, or whose segments are larger than RLIMIT_AS, is killed by
 * the kernel inside execve (SIGSEGV past the point of no return) before it
 * runs a single instruction.  The supervisor reads this only for a program
 * that died so, to call it what it is: memory_limit.
 */
#include "internal.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The writable (data, bss) and all loadable bytes of path's segments, in
 * kB; false if it is not an ELF file we can read. */
bool sl_elf_sizes(const char *path, uint64_t *writable_kb, uint64_t *total_kb)
{
	*writable_kb = *total_kb = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	unsigned char buf[4096];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < (ssize_t)sizeof(Elf32_Ehdr) || memcmp(buf, ELFMAG, SELFMAG))
		return false;
	bool is64 = buf[EI_CLASS] == ELFCLASS64;
	uint64_t phoff, phnum, phentsize;
	if (is64) {
		if (n < (ssize_t)sizeof(Elf64_Ehdr))
			return false;
		Elf64_Ehdr eh;
		memcpy(&eh, buf, sizeof(eh));
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr eh;
		memcpy(&eh, buf, sizeof(eh));
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	}
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    phoff + phnum * phentsize > (uint64_t)n)
		return false; /* headers beyond the first page: not worth more reads */
	uint64_t w = 0, all = 0;
	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t type, flags, memsz;
		if (is64) {
			Elf64_Phdr ph;
			memcpy(&ph, buf + phoff + i * phentsize, sizeof(ph));
			type = ph.p_type, flags = ph.p_flags, memsz = ph.p_memsz;
		} else {
			Elf32_Phdr ph;
			memcpy(&ph, buf + phoff + i * phentsize, sizeof(ph));
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
