/* ELF64 executable validation for the user program loader. Pure logic with
 * no libc calls and no allocation (kernel and host unit tests). Structures
 * are defined here from the System V ABI / ELF-64 Object File Format
 * specification; the parser never dereferences them in place (the file may
 * be unaligned), it copies each header out first. */
#ifndef ARBOR_ELF_H
#define ARBOR_ELF_H

#include "types.h"

#include "abi/errno.h" /* elf_parse returns -ENOEXEC or -E2BIG */

/* e_ident */
#define EI_NIDENT     16
#define EI_CLASS      4
#define EI_DATA       5
#define EI_VERSION    6
#define EI_OSABI      7
#define ELFCLASS64    2
#define ELFDATA2LSB   1
#define ELFOSABI_SYSV 0
#define ELFOSABI_GNU  3  /* set by ld when the image uses GNU extensions */
#define EV_CURRENT    1

#define ET_EXEC    2
#define EM_X86_64  62

#define PT_LOAD    1
#define PT_DYNAMIC 2
#define PT_INTERP  3

#define PF_X 0x1u
#define PF_W 0x2u
#define PF_R 0x4u

struct elf64_ehdr {
	uint8_t  e_ident[EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint64_t e_entry;
	uint64_t e_phoff;
	uint64_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
};

struct elf64_phdr {
	uint32_t p_type;
	uint32_t p_flags;
	uint64_t p_offset;
	uint64_t p_vaddr;
	uint64_t p_paddr;
	uint64_t p_filesz;
	uint64_t p_memsz;
	uint64_t p_align;
};

_Static_assert(sizeof(struct elf64_ehdr) == 64, "ELF64 header is 64 bytes");
_Static_assert(sizeof(struct elf64_phdr) == 56, "ELF64 phdr is 56 bytes");

#define ELF_MAX_SEGMENTS 16

struct elf_segment {
	uint64_t vaddr, memsz, filesz, offset;
	bool r, w, x;
};

struct elf_image {
	uint64_t entry;
	unsigned nsegs;
	struct elf_segment segs[ELF_MAX_SEGMENTS];
};

/* Validates a static x86_64 executable and describes its PT_LOAD segments,
 * in program header order. Requirements: ELFCLASS64, little-endian,
 * EV_CURRENT, OS ABI SYSV or GNU, ET_EXEC, EM_X86_64, ehsize 64, phentsize
 * 56, program headers inside the file; every PT_LOAD has filesz <= memsz,
 * offset + filesz inside the file, vaddr % 4096 == offset % 4096, and lies
 * within [4096, ALIGN_DOWN(user_top, 4096)) once rounded out to pages (page 0
 * stays unmapped so NULL dereferences fault); loads do not overlap after that
 * rounding; at least one PT_LOAD with memsz > 0; entry inside an executable
 * load. PT_INTERP or PT_DYNAMIC is rejected (static only); other types are
 * ignored, as are PT_LOADs with memsz 0 (nothing to map) once checked
 * like any other.
 * Returns 0, -ENOEXEC for anything not a valid image of this kind, or -E2BIG
 * for more than ELF_MAX_SEGMENTS loads (checked after every per-header rule,
 * before overlap and entry). On failure *out is zeroed. */
int elf_parse(const void *file, uint64_t len, uint64_t user_top,
	      struct elf_image *out);

#endif
