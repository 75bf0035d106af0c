/* Lookups in the kernel's own symbol table (embedded by the second link,
 * tools/gen-ksyms.sh): function name and offset for an address, for
 * backtraces, and an address for a name, for tests. */
#include "ksyms.h"
#include "kstring.h"

struct ksym {
	uint64_t addr;
	uint32_t name;	/* offset into ksyms_strtab */
	uint32_t pad;
};

/* Emitted by tools/gen-ksyms.sh, sorted by address. */
extern const uint64_t ksyms_nr;
extern const struct ksym ksyms_table[];
extern const char ksyms_strtab[];
extern const char __text_end[];

const char *ksyms_lookup(uint64_t addr, uint64_t *offset)
{
	uint64_t lo = 0, hi = ksyms_nr;

	if (hi == 0 || addr < ksyms_table[0].addr || addr >= (uint64_t)__text_end)
		return NULL;
	while (hi - lo > 1) { /* last entry with .addr <= addr */
		uint64_t mid = lo + (hi - lo) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (offset)
		*offset = addr - ksyms_table[lo].addr;
	return ksyms_strtab + ksyms_table[lo].name;
}

uint64_t ksyms_find(const char *name)
{
	for (uint64_t i = 0; i < ksyms_nr; i++)
		if (strcmp(ksyms_strtab + ksyms_table[i].name, name) == 0)
			return ksyms_table[i].addr;
	return 0;
}

uint64_t ksyms_count(void)
{
	return ksyms_nr;
}
