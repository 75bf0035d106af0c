/* Self-tests of what the loader handed over. */
#include "../../boot/boot.h"
#include "bootinfo.h"
#include "ktest.h"
#include "pmm.h"

KTEST(boot_info_sane)
{
	const struct boot_info *bi = &boot_info;
	char mem[16];

	KT_EXPECT(bi->loader == LOADER_PVH || bi->loader == LOADER_MULTIBOOT2);
	KT_EXPECT(bi->nr_mem > 0);
	KT_EXPECT(bootinfo_usable_bytes(bi) > (16ull << 20));
	/* The runner passes mem=MIB so the map can be checked against QEMU's -m. */
	if (cmdline_get(bi->cmdline, "mem", mem, sizeof(mem))) {
		uint64_t mib = 0;
		for (const char *p = mem; *p >= '0' && *p <= '9'; p++)
			mib = mib * 10 + (uint64_t)(*p - '0');
		uint64_t usable = bootinfo_usable_bytes(bi) >> 20;
		KT_EXPECT(usable <= mib && usable + 16 >= mib);
	}
	KT_EXPECT(pmm_managed_pages() * PAGE_SIZE <= bootinfo_usable_bytes(bi));
	/* All but the kernel image, the boot modules and a little slack. */
	uint64_t mods = 0;
	for (uint32_t i = 0; i < bi->nr_mods; i++)
		mods += bi->mods[i].size;
	KT_EXPECT(pmm_managed_pages() * PAGE_SIZE + mods + (8ull << 20) >=
		  bootinfo_usable_bytes(bi));
}
