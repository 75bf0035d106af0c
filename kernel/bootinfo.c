/* Loader-independent boot information. Pure logic: the caller supplies the
 * physical-to-readable translation, so host unit tests can feed it
 * synthetic structures. Structures are copied out; nothing keeps pointers
 * into loader memory, which the page allocator may reuse. */
#include "bootinfo.h"
#include "../boot/boot.h"

/* multiboot2 tags (The Multiboot2 Specification, section 3.6). */
#define MB2_TAG_END     0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_MODULE  3
#define MB2_TAG_MMAP    6

struct mb2_tag { uint32_t type, size; };
struct mb2_mmap_entry { uint64_t base, len; uint32_t type, reserved; };

/* Xen's hvm_start_info (arch-x86/hvm/start_info.h), version 1. */
struct pvh_start_info {
	uint32_t magic, version, flags, nr_modules;
	uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr;
	uint64_t memmap_paddr;
	uint32_t memmap_entries, reserved;
};
struct pvh_module { uint64_t paddr, size, cmdline_paddr, reserved; };
struct pvh_memmap_entry { uint64_t addr, size; uint32_t type, reserved; };

static void bi_strcpy(char *dst, size_t cap, const char *src, size_t srclen)
{
	size_t i = 0;
	if (cap == 0)
		return;
	for (; i + 1 < cap && i < srclen && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

static void bi_add_mem(struct boot_info *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (len == 0 || bi->nr_mem >= BOOT_MAX_MEM_RANGES)
		return;
	/* Both loaders use the E820 type numbers; anything unknown is reserved. */
	if (type < BOOT_MEM_USABLE || type > BOOT_MEM_BAD)
		type = BOOT_MEM_RESERVED;
	bi->mem[bi->nr_mem++] = (struct boot_mem_range){ base, len, type };
}

static void bi_add_module(struct boot_info *bi, uint64_t start, uint64_t size,
			  const char *name, size_t namelen)
{
	if (bi->nr_mods >= BOOT_MAX_MODULES)
		return;
	struct boot_module *m = &bi->mods[bi->nr_mods++];
	m->start = start;
	m->size = size;
	bi_strcpy(m->name, sizeof(m->name), name ? name : "", name ? namelen : 0);
}

static void mb2_parse_mmap(struct boot_info *bi, const struct mb2_tag *tag)
{
	const uint32_t *hdr = (const uint32_t *)(tag + 1);
	const uint8_t *p = (const uint8_t *)(hdr + 2);
	const uint8_t *end = (const uint8_t *)tag + tag->size;

	if (tag->size < sizeof(*tag) + 8) /* no room for entry_size/version */
		return;
	uint32_t entry_size = hdr[0];
	if (entry_size < sizeof(struct mb2_mmap_entry))
		return;
	for (; p + entry_size <= end; p += entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;
		bi_add_mem(bi, e->base, e->len, e->type);
	}
}

static void mb2_parse_tag(struct boot_info *bi, const struct mb2_tag *tag)
{
	const char *body = (const char *)(tag + 1);
	size_t body_len = tag->size - sizeof(*tag);

	switch (tag->type) {
	case MB2_TAG_CMDLINE:
		bi_strcpy(bi->cmdline, sizeof(bi->cmdline), body, body_len);
		break;
	case MB2_TAG_MODULE: {
		const uint32_t *r = (const uint32_t *)body;
		if (body_len >= 8)
			bi_add_module(bi, r[0], r[1] - r[0], body + 8, body_len - 8);
		break;
	}
	case MB2_TAG_MMAP:
		mb2_parse_mmap(bi, tag);
		break;
	}
}

int bootinfo_parse_mb2(struct boot_info *bi, paddr_t mbi, bootinfo_phys_fn phys)
{
	const uint32_t *head = phys(mbi, 8);
	uint32_t total = head[0];

	bi->loader = LOADER_MULTIBOOT2;
	bi->loader_name = "GRUB (multiboot2)";
	if (total < 16)
		return -1;
	const uint8_t *base = phys(mbi, total);
	for (uint64_t off = 8; off + sizeof(struct mb2_tag) <= total;) {
		const struct mb2_tag *tag = (const void *)(base + off);
		if (tag->type == MB2_TAG_END)
			return 0;
		if (tag->size < sizeof(*tag) || off + tag->size > total)
			return -1;
		mb2_parse_tag(bi, tag);
		off += ALIGN_UP(tag->size, 8u);
	}
	return -1; /* no end tag */
}

static size_t bi_cstr_len(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

static void pvh_parse_modules(struct boot_info *bi, const struct pvh_start_info *si,
			      bootinfo_phys_fn phys)
{
	if (si->nr_modules == 0 || si->modlist_paddr == 0)
		return;
	const struct pvh_module *mods =
		phys(si->modlist_paddr, si->nr_modules * sizeof(struct pvh_module));
	for (uint32_t i = 0; i < si->nr_modules; i++) {
		const char *name = NULL;
		size_t len = 0;
		if (mods[i].cmdline_paddr) {
			name = phys(mods[i].cmdline_paddr, BOOT_MODNAME_MAX);
			len = bi_cstr_len(name, BOOT_MODNAME_MAX);
		}
		bi_add_module(bi, mods[i].paddr, mods[i].size, name, len);
	}
}

int bootinfo_parse_pvh(struct boot_info *bi, paddr_t start_info, bootinfo_phys_fn phys)
{
	const struct pvh_start_info *si = phys(start_info, sizeof(*si));

	bi->loader = LOADER_PVH;
	bi->loader_name = "QEMU -kernel (PVH)";
	if (si->magic != PVH_START_MAGIC)
		return -1;
	if (si->cmdline_paddr) {
		const char *c = phys(si->cmdline_paddr, BOOT_CMDLINE_MAX);
		bi_strcpy(bi->cmdline, sizeof(bi->cmdline), c, bi_cstr_len(c, BOOT_CMDLINE_MAX));
	}
	pvh_parse_modules(bi, si, phys);
	bi->rsdp = si->rsdp_paddr;
	if (si->version < 1 || si->memmap_paddr == 0)
		return -1; /* version 0 has no memory map: nothing to run on */
	const struct pvh_memmap_entry *mm =
		phys(si->memmap_paddr, si->memmap_entries * sizeof(*mm));
	for (uint32_t i = 0; i < si->memmap_entries; i++)
		bi_add_mem(bi, mm[i].addr, mm[i].size, mm[i].type);
	return 0;
}

uint64_t bootinfo_usable_bytes(const struct boot_info *bi)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == BOOT_MEM_USABLE)
			total += bi->mem[i].len;
	return total;
}

paddr_t bootinfo_usable_top(const struct boot_info *bi)
{
	paddr_t top = 0;
	for (uint32_t i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == BOOT_MEM_USABLE)
			top = MAX(top, bi->mem[i].base + bi->mem[i].len);
	return top;
}

static bool cmdline_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

bool cmdline_get(const char *cmdline, const char *key, char *out, size_t outlen)
{
	const char *p = cmdline;

	while (*p) {
		while (cmdline_is_space(*p))
			p++;
		const char *word = p;
		while (*p && !cmdline_is_space(*p))
			p++;
		size_t klen = 0;
		while (key[klen] && word + klen < p && word[klen] == key[klen])
			klen++;
		if (key[klen] != '\0' || klen == 0)
			continue;
		const char *val = word + klen;
		if (val == p) {
			if (outlen)
				out[0] = '\0';
			return true;
		}
		if (*val != '=')
			continue;
		val++;
		bi_strcpy(out, outlen, val, (size_t)(p - val));
		return true;
	}
	return false;
}
