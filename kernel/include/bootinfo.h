/* What the loader told us, in one shape whichever loader it was. Parsed
 * once at boot from the multiboot2 information or PVH hvm_start_info. */
#ifndef ARBOR_BOOTINFO_H
#define ARBOR_BOOTINFO_H

#include "types.h"

#define BOOT_MEM_USABLE      1
#define BOOT_MEM_RESERVED    2
#define BOOT_MEM_ACPI        3
#define BOOT_MEM_NVS         4
#define BOOT_MEM_BAD         5

#define BOOT_MAX_MEM_RANGES  64
#define BOOT_MAX_MODULES     16
#define BOOT_CMDLINE_MAX     512
#define BOOT_MODNAME_MAX     64

struct boot_mem_range {
	paddr_t base;
	uint64_t len;
	uint32_t type;
};

struct boot_module {
	paddr_t start;
	uint64_t size;
	char name[BOOT_MODNAME_MAX];
};

struct boot_info {
	int loader;		/* LOADER_* from boot/boot.h */
	const char *loader_name;
	char cmdline[BOOT_CMDLINE_MAX];
	struct boot_mem_range mem[BOOT_MAX_MEM_RANGES];
	uint32_t nr_mem;
	struct boot_module mods[BOOT_MAX_MODULES];
	uint32_t nr_mods;
	paddr_t rsdp;		/* ACPI root pointer, 0 if unknown */
};

/* Translates a physical address to something the parser can read. */
typedef const void *(*bootinfo_phys_fn)(paddr_t pa, size_t len);

/* Both return 0, or -1 when the structure is malformed (kept partial). */
int bootinfo_parse_mb2(struct boot_info *bi, paddr_t mbi, bootinfo_phys_fn phys);
int bootinfo_parse_pvh(struct boot_info *bi, paddr_t start_info, bootinfo_phys_fn phys);

uint64_t bootinfo_usable_bytes(const struct boot_info *bi);
/* The end of the highest usable memory-map range. */
paddr_t bootinfo_usable_top(const struct boot_info *bi);

/* Copies the value of "key=value" from a command line (or "" for a bare
 * "key"); returns false when the key is absent. */
bool cmdline_get(const char *cmdline, const char *key, char *out, size_t outlen);

extern struct boot_info boot_info;

#endif
