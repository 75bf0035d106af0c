/* Host unit test for kernel/bootinfo.c: feeds synthetic multiboot2 and PVH
 * (hvm_start_info) structures through the parsers via a fake "physical
 * memory", and checks cmdline_get. Emits TAP.
 *
 * The fake memory is a heap block sized exactly to what the loader would
 * hand over (the mb2 info is exactly total_size bytes), so ASan reports any
 * read past the structure. The translation callback also records requests
 * for ranges outside the block; every parse test checks there were none. */

/* Host headers first: types.h defines short macros (e.g. __unused) that
 * could collide with identifiers inside libc headers. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootinfo.h"
#include "../../boot/boot.h"
#include "tap.h"

/* ---------------------------------------------------------- expectations */

/* Problems found while checking one test: each is printed as a diagnostic
 * and counted; the test's result is ok only if there were none. */
static int nbad;

static __attribute__((format(printf, 1, 2))) void bad(const char *fmt, ...)
{
	va_list ap;

	nbad++;
	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

static void expect_u64(const char *what, uint64_t got, uint64_t want)
{
	if (got != want)
		bad("%s: got %#llx, want %#llx", what, (unsigned long long)got,
		    (unsigned long long)want);
}

static void expect_int(const char *what, long got, long want)
{
	if (got != want)
		bad("%s: got %ld, want %ld", what, got, want);
}

static void expect_str(const char *what, const char *got, const char *want)
{
	if (!got || strcmp(got, want) != 0)
		bad("%s: got \"%s\", want \"%s\"", what, got ? got : "(null)", want);
}

/* --------------------------------------------------- fake physical memory */

#define MEM_BASE 0x10000ull
#define PA(off)  (MEM_BASE + (paddr_t)(off))

static uint8_t *mem;
static size_t mem_len;
static int phys_errors;
static const uint8_t zero_area[1 << 16];

static const void *fake_phys(paddr_t pa, size_t len)
{
	if (mem && pa >= MEM_BASE && len <= mem_len && pa - MEM_BASE <= mem_len - len)
		return mem + (pa - MEM_BASE);
	phys_errors++;
	tap_diag("phys(%#llx, %zu) is outside fake memory [%#llx, %#llx)",
		 (unsigned long long)pa, len, MEM_BASE, (unsigned long long)(MEM_BASE + mem_len));
	if (len > sizeof(zero_area))
		tap_bail("phys() asked for %zu bytes outside fake memory", len);
	return zero_area; /* keep going; the test fails on phys_errors */
}

/* The image being built; loaded into an exactly-sized heap block. */
static uint8_t img[1 << 16];
static size_t img_len;

static void img_reset(void)
{
	memset(img, 0, sizeof(img));
	img_len = 0;
}

static void put32(size_t off, uint32_t v) { memcpy(img + off, &v, sizeof(v)); }
static void put64(size_t off, uint64_t v) { memcpy(img + off, &v, sizeof(v)); }

/* Copies the first len bytes of the image into fresh fake memory. */
static void mem_load(size_t len)
{
	free(mem);
	mem = xmalloc(len);
	memcpy(mem, img, len);
	mem_len = len;
	phys_errors = 0;
}

static struct boot_info bi;

static void bi_reset(void)
{
	memset(&bi, 0, sizeof(bi)); /* the kernel's copy lives in zeroed .bss */
	nbad = 0;
}

static void expect_no_phys_errors(void)
{
	if (phys_errors)
		bad("%d phys() request(s) outside fake memory", phys_errors);
}

static void expect_mem(uint32_t i, paddr_t base, uint64_t len, uint32_t type)
{
	if (i >= bi.nr_mem) {
		bad("mem[%u] missing (nr_mem %u)", i, bi.nr_mem);
		return;
	}
	const struct boot_mem_range *r = &bi.mem[i];
	if (r->base != base || r->len != len || r->type != type)
		bad("mem[%u] = {%#llx, %#llx, %u}, want {%#llx, %#llx, %u}", i,
		    (unsigned long long)r->base, (unsigned long long)r->len, r->type,
		    (unsigned long long)base, (unsigned long long)len, type);
}

static void expect_mod(uint32_t i, paddr_t start, uint64_t size, const char *name)
{
	if (i >= bi.nr_mods) {
		bad("mods[%u] missing (nr_mods %u)", i, bi.nr_mods);
		return;
	}
	const struct boot_module *m = &bi.mods[i];
	if (m->start != start || m->size != size || strcmp(m->name, name) != 0)
		bad("mods[%u] = {%#llx, %#llx, \"%s\"}, want {%#llx, %#llx, \"%s\"}", i,
		    (unsigned long long)m->start, (unsigned long long)m->size, m->name,
		    (unsigned long long)start, (unsigned long long)size, name);
}

/* ------------------------------------------------------ multiboot2 image */

struct ent { uint64_t base, len; uint32_t type; };

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

static void mb2_begin(void)
{
	img_reset();
	img_len = 8; /* total_size, reserved: filled in by mb2_end/mb2_total */
}

/* Appends a tag whose size field is given explicitly; returns its offset. */
static size_t mb2_tag_raw(uint32_t type, uint32_t size_field, const void *body, size_t body_len)
{
	size_t off = img_len;
	put32(off, type);
	put32(off + 4, size_field);
	if (body_len)
		memcpy(img + off + 8, body, body_len);
	img_len = align8(off + 8 + body_len);
	return off;
}

static size_t mb2_tag(uint32_t type, const void *body, size_t body_len)
{
	return mb2_tag_raw(type, (uint32_t)(8 + body_len), body, body_len);
}

static void mb2_string_tag(uint32_t type, const char *s)
{
	mb2_tag(type, s, strlen(s) + 1);
}

static void mb2_module(uint32_t start, uint32_t end, const char *name)
{
	uint8_t body[512];
	size_t n = strlen(name) + 1;
	memcpy(body, &start, 4);
	memcpy(body + 4, &end, 4);
	memcpy(body + 8, name, n);
	mb2_tag(3, body, 8 + n);
}

/* Entries are laid out entry_size apart; bytes beyond the 24 the spec
 * defines are filled with junk the parser must skip. */
static void mb2_mmap(const struct ent *e, size_t n, uint32_t entry_size)
{
	static uint8_t body[8 + 256 * 64];
	uint32_t version = 0;
	memset(body, 0xee, sizeof(body));
	memcpy(body, &entry_size, 4);
	memcpy(body + 4, &version, 4);
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = body + 8 + i * entry_size;
		uint32_t reserved = 0;
		memcpy(p, &e[i].base, 8);
		memcpy(p + 8, &e[i].len, 8);
		memcpy(p + 16, &e[i].type, 4);
		memcpy(p + 20, &reserved, 4);
	}
	mb2_tag(6, body, 8 + n * entry_size);
}

/* Sets total_size explicitly (for malformed images). */
static void mb2_total(uint32_t total)
{
	put32(0, total);
	put32(4, 0);
}

/* Appends the end tag and sets total_size; returns it. */
static uint32_t mb2_end(void)
{
	mb2_tag_raw(0, 8, NULL, 0);
	mb2_total((uint32_t)img_len);
	return (uint32_t)img_len;
}

static int mb2_parse_len(size_t len)
{
	mem_load(len);
	bi_reset();
	return bootinfo_parse_mb2(&bi, PA(0), fake_phys);
}

static void expect_mb2_loader(void)
{
	expect_int("loader", bi.loader, LOADER_MULTIBOOT2);
	expect_str("loader_name", bi.loader_name, "GRUB (multiboot2)");
}

/* ----------------------------------------------------- multiboot2 tests */

static void test_mb2_realistic(void)
{
	static const struct ent mm[6] = {
		{ 0x0, 0x9fc00, 1 },
		{ 0x9fc00, 0x400, 2 },
		{ 0x100000, 0x7ee0000, 1 },
		{ 0x7fe0000, 0x20000, 3 },
		{ 0xfeffc000, 0x4000, 12 },	/* unknown type -> reserved */
		{ 0x100000000, 0, 1 },		/* zero length: dropped */
	};
	uint32_t meminfo[2] = { 639, 130944 };
	uint8_t rsdp_v1[20] = "RSD PTR ";

	mb2_begin();
	mb2_string_tag(1, "console=ttyS0 test=all quiet");	/* odd length */
	mb2_string_tag(2, "GRUB 2.12");				/* skipped */
	mb2_tag(4, meminfo, sizeof(meminfo));			/* skipped */
	mb2_module(0x200000, 0x234567, "initrd.cpio");
	mb2_module(0x235000, 0x236000, "/boot/init arg1 arg2");
	mb2_tag(14, rsdp_v1, sizeof(rsdp_v1));			/* size 28: padded */
	mb2_mmap(mm, 6, 24);
	uint32_t total = mb2_end();

	int rc = mb2_parse_len(total);
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_mb2_loader();
	expect_str("cmdline", bi.cmdline, "console=ttyS0 test=all quiet");
	expect_int("nr_mods", bi.nr_mods, 2);
	expect_mod(0, 0x200000, 0x34567, "initrd.cpio");
	expect_mod(1, 0x235000, 0x1000, "/boot/init arg1 arg2");
	expect_int("nr_mem", bi.nr_mem, 5);
	expect_mem(0, 0x0, 0x9fc00, BOOT_MEM_USABLE);
	expect_mem(1, 0x9fc00, 0x400, BOOT_MEM_RESERVED);
	expect_mem(2, 0x100000, 0x7ee0000, BOOT_MEM_USABLE);
	expect_mem(3, 0x7fe0000, 0x20000, BOOT_MEM_ACPI);
	expect_mem(4, 0xfeffc000, 0x4000, BOOT_MEM_RESERVED);
	expect_u64("usable bytes", bootinfo_usable_bytes(&bi), 0x9fc00 + 0x7ee0000);
	expect_u64("usable top", bootinfo_usable_top(&bi), 0x7fe0000);
	expect_u64("rsdp", bi.rsdp, 0);
	ok(nbad == 0, "mb2: realistic info (cmdline, 2 modules, 6-entry mmap, skipped tags)");
}

static void test_mb2_entry_size(void)
{
	static const struct ent mm[3] = {
		{ 0x0, 0x9f000, 1 },
		{ 0x100000, 0x1f00000, 1 },
		{ 0xfffc0000, 0x40000, 2 },
	};

	/* A larger entry_size (future spec versions) must be stepped over. */
	mb2_begin();
	mb2_mmap(mm, 3, 32);
	int rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 3);
	expect_mem(0, 0x0, 0x9f000, BOOT_MEM_USABLE);
	expect_mem(1, 0x100000, 0x1f00000, BOOT_MEM_USABLE);
	expect_mem(2, 0xfffc0000, 0x40000, BOOT_MEM_RESERVED);
	expect_u64("usable top", bootinfo_usable_top(&bi), 0x2000000);
	ok(nbad == 0, "mb2: mmap entry_size 32 is honoured");

	/* An entry_size smaller than an entry: no entries taken. */
	mb2_begin();
	mb2_mmap(mm, 3, 16);
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "mb2: mmap entry_size < 24 is ignored");

	/* An absurd entry_size: no entries, no reads past the tag. */
	mb2_begin();
	{
		uint32_t hdr[2] = { 0xffffffffu, 0 };
		mb2_tag(6, hdr, sizeof(hdr));
	}
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "mb2: mmap entry_size 0xffffffff is ignored");

	/* A trailing partial entry inside the tag is not read. */
	mb2_begin();
	{
		uint8_t body[8 + 24 + 10];
		uint32_t es = 24, ver = 0, type = 1;
		uint64_t base = 0x100000, len = 0x100000;
		memset(body, 0x11, sizeof(body));
		memcpy(body, &es, 4);
		memcpy(body + 4, &ver, 4);
		memcpy(body + 8, &base, 8);
		memcpy(body + 16, &len, 8);
		memcpy(body + 24, &type, 4);
		mb2_tag(6, body, sizeof(body));
	}
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 1);
	expect_mem(0, 0x100000, 0x100000, BOOT_MEM_USABLE);
	ok(nbad == 0, "mb2: partial trailing mmap entry is ignored");
}

static void test_mb2_stops_at_end(void)
{
	mb2_begin();
	mb2_string_tag(1, "first");
	mb2_tag_raw(0, 8, NULL, 0);
	mb2_string_tag(1, "after-end");
	mb2_total((uint32_t)img_len);
	int rc = mb2_parse_len(img_len);
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_str("cmdline", bi.cmdline, "first");
	ok(nbad == 0, "mb2: tags after the end tag are not parsed");
}

static void test_mb2_cmdline_unterminated(void)
{
	/* A cmdline tag whose string lacks its NUL: bounded by the tag size. */
	mb2_begin();
	mb2_tag(1, "abcde", 5);
	mb2_string_tag(2, "XYZXYZXYZ"); /* nonzero bytes right after the padding */
	int rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_str("cmdline", bi.cmdline, "abcde");
	ok(nbad == 0, "mb2: unterminated cmdline is bounded by the tag size");
}

static void test_mb2_long_strings(void)
{
	static char longcmd[700];
	memset(longcmd, 'c', sizeof(longcmd) - 1);
	longcmd[sizeof(longcmd) - 1] = '\0';
	longcmd[0] = 'x';

	mb2_begin();
	mb2_string_tag(1, longcmd);
	int rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	size_t n = strnlen(bi.cmdline, sizeof(bi.cmdline));
	expect_int("cmdline length", (long)n, BOOT_CMDLINE_MAX - 1);
	if (n < sizeof(bi.cmdline) && strncmp(bi.cmdline, longcmd, n) != 0)
		bad("cmdline is not a prefix of the original");
	ok(nbad == 0, "mb2: over-long cmdline truncated to BOOT_CMDLINE_MAX-1, NUL-terminated");

	char longname[200];
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	mb2_begin();
	mb2_module(0x400000, 0x401000, longname);
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mods", bi.nr_mods, 1);
	n = strnlen(bi.mods[0].name, sizeof(bi.mods[0].name));
	expect_int("name length", (long)n, BOOT_MODNAME_MAX - 1);
	ok(nbad == 0, "mb2: over-long module name truncated to BOOT_MODNAME_MAX-1");
}

static void test_mb2_caps(void)
{
	static struct ent mm[BOOT_MAX_MEM_RANGES + 10];
	for (size_t i = 0; i < ARRAY_SIZE(mm); i++)
		mm[i] = (struct ent){ 0x100000 * (i + 1), 0x1000, 1 };

	mb2_begin();
	mb2_mmap(mm, ARRAY_SIZE(mm), 24);
	int rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, BOOT_MAX_MEM_RANGES);
	expect_mem(0, 0x100000, 0x1000, BOOT_MEM_USABLE);
	expect_mem(BOOT_MAX_MEM_RANGES - 1, 0x100000ull * BOOT_MAX_MEM_RANGES, 0x1000,
		   BOOT_MEM_USABLE);
	ok(nbad == 0, "mb2: more than BOOT_MAX_MEM_RANGES entries are capped");

	mb2_begin();
	for (uint32_t i = 0; i < BOOT_MAX_MODULES + 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "mod%u", i);
		mb2_module(0x1000000 + i * 0x10000, 0x1000000 + i * 0x10000 + 0x100, name);
	}
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mods", bi.nr_mods, BOOT_MAX_MODULES);
	expect_mod(BOOT_MAX_MODULES - 1, 0x1000000 + (BOOT_MAX_MODULES - 1) * 0x10000, 0x100,
		   "mod15");
	ok(nbad == 0, "mb2: more than BOOT_MAX_MODULES modules are capped");
}

static void test_mb2_malformed(void)
{
	int rc;

	/* total_size < 16: only the 8-byte header exists. */
	static const uint32_t small_totals[] = { 0, 8, 12, 15 };
	for (size_t i = 0; i < ARRAY_SIZE(small_totals); i++) {
		uint32_t t = small_totals[i];
		img_reset();
		mb2_total(t);
		rc = mb2_parse_len(t > 8 ? t : 8);
		expect_int("return", rc, -1);
		expect_no_phys_errors();
		expect_mb2_loader();
		ok(nbad == 0, "mb2: total_size %u (< 16) -> -1", t);
	}

	/* A tag that runs past total_size. */
	mb2_begin();
	mb2_tag_raw(1, 64, "abc", 4); /* claims 64 bytes; only 16 exist */
	mb2_total((uint32_t)img_len);
	rc = mb2_parse_len(img_len);
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_str("cmdline", bi.cmdline, "");
	ok(nbad == 0, "mb2: tag size past total_size -> -1");

	/* Sizes big enough to wrap 32-bit offset arithmetic. */
	static const uint32_t huge[] = { 0xfffffff8u, 0xfffffffcu, 0xffffffffu };
	for (size_t i = 0; i < ARRAY_SIZE(huge); i++) {
		mb2_begin();
		mb2_tag_raw(1, huge[i], "abcdefg", 8);
		mb2_tag_raw(0, 8, NULL, 0);
		mb2_total((uint32_t)img_len);
		rc = mb2_parse_len(img_len);
		expect_int("return", rc, -1);
		expect_no_phys_errors();
		expect_str("cmdline", bi.cmdline, "");
		ok(nbad == 0, "mb2: tag size %#x (wraps offsets) -> -1", huge[i]);
	}

	/* Tags with size < 8 (0 would loop forever if accepted). */
	static const uint32_t tiny[] = { 0, 4, 7 };
	for (size_t i = 0; i < ARRAY_SIZE(tiny); i++) {
		mb2_begin();
		mb2_tag_raw(2, tiny[i], NULL, 0);
		mb2_tag_raw(0, 8, NULL, 0);
		mb2_total((uint32_t)img_len);
		rc = mb2_parse_len(img_len);
		expect_int("return", rc, -1);
		expect_no_phys_errors();
		ok(nbad == 0, "mb2: tag size %u (< 8) -> -1", tiny[i]);
	}

	/* Missing end tag: what was parsed is kept, the result is -1. */
	mb2_begin();
	mb2_string_tag(1, "root=/dev/vda");
	mb2_total((uint32_t)img_len);
	rc = mb2_parse_len(img_len);
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_str("cmdline (kept partial)", bi.cmdline, "root=/dev/vda");
	ok(nbad == 0, "mb2: missing end tag -> -1");

	/* Missing end tag, total_size not padded to 8 after the last tag. */
	mb2_begin();
	mb2_tag(1, "0123", 5); /* tag size 13 */
	mb2_total(8 + 13);
	rc = mb2_parse_len(8 + 13);
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	ok(nbad == 0, "mb2: missing end tag, unpadded total_size -> -1");

	/* Missing end tag, total_size stops inside the next tag header. */
	mb2_begin();
	mb2_string_tag(1, "abc");
	mb2_total((uint32_t)img_len + 4);
	rc = mb2_parse_len(img_len + 4);
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	ok(nbad == 0, "mb2: total_size ends inside a tag header -> -1");

	/* An mmap tag too short for its own header, as the last bytes. */
	static const uint32_t short_mmap[] = { 8, 12 };
	for (size_t i = 0; i < ARRAY_SIZE(short_mmap); i++) {
		uint32_t sz = short_mmap[i];
		uint32_t es = 24;
		mb2_begin();
		mb2_tag_raw(6, sz, &es, sz - 8);
		mb2_total(8 + sz);
		rc = mb2_parse_len(8 + sz);
		expect_int("return", rc, -1);
		expect_no_phys_errors();
		expect_int("nr_mem", bi.nr_mem, 0);
		ok(nbad == 0, "mb2: mmap tag of size %u at the very end -> -1, no overread", sz);
	}

	/* A module tag too short for mod_start/mod_end is skipped. */
	mb2_begin();
	{
		uint32_t start = 0x100000;
		mb2_tag(3, &start, 4);
	}
	rc = mb2_parse_len(mb2_end());
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mods", bi.nr_mods, 0);
	ok(nbad == 0, "mb2: truncated module tag is skipped");
}

/* ------------------------------------------------------------- PVH image */

/* hvm_start_info layout (version 1). */
#define SI_MAGIC          0
#define SI_VERSION        4
#define SI_FLAGS          8
#define SI_NR_MODULES     12
#define SI_MODLIST        16
#define SI_CMDLINE        24
#define SI_RSDP           32
#define SI_MEMMAP         40
#define SI_MEMMAP_ENTRIES 48
#define SI_RESERVED       52
#define SI_SIZE           56

#define PVH_MEM_SIZE 0x10000
#define PVH_SI       0x0100
#define PVH_CMDLINE  0x1000
#define PVH_MODLIST  0x2000
#define PVH_MODNAMES 0x3000
#define PVH_MEMMAP   0x6000

static void pvh_header(uint32_t magic, uint32_t version, uint32_t nr_modules, uint64_t modlist,
		       uint64_t cmdline, uint64_t rsdp, uint64_t memmap, uint32_t memmap_entries)
{
	put32(PVH_SI + SI_MAGIC, magic);
	put32(PVH_SI + SI_VERSION, version);
	put32(PVH_SI + SI_FLAGS, 0);
	put32(PVH_SI + SI_NR_MODULES, nr_modules);
	put64(PVH_SI + SI_MODLIST, modlist);
	put64(PVH_SI + SI_CMDLINE, cmdline);
	put64(PVH_SI + SI_RSDP, rsdp);
	put64(PVH_SI + SI_MEMMAP, memmap);
	put32(PVH_SI + SI_MEMMAP_ENTRIES, memmap_entries);
	put32(PVH_SI + SI_RESERVED, 0);
}

static void pvh_module(uint32_t i, uint64_t paddr, uint64_t size, uint64_t cmdline)
{
	size_t off = PVH_MODLIST + i * 32;
	put64(off, paddr);
	put64(off + 8, size);
	put64(off + 16, cmdline);
	put64(off + 24, 0);
}

static void pvh_memmap(const struct ent *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t off = PVH_MEMMAP + i * 24;
		put64(off, e[i].base);
		put64(off + 8, e[i].len);
		put32(off + 16, e[i].type);
		put32(off + 20, 0);
	}
}

static int pvh_parse(void)
{
	mem_load(PVH_MEM_SIZE);
	bi_reset();
	return bootinfo_parse_pvh(&bi, PA(PVH_SI), fake_phys);
}

static void expect_pvh_loader(void)
{
	expect_int("loader", bi.loader, LOADER_PVH);
	expect_str("loader_name", bi.loader_name, "QEMU -kernel (PVH)");
}

static const struct ent pvh_mm[8] = {
	{ 0x0, 0x9fc00, 1 },
	{ 0x9fc00, 0x400, 2 },
	{ 0xf0000, 0x10000, 2 },
	{ 0x100000, 0x3fee0000, 1 },
	{ 0x3ffe0000, 0x20000, 3 },
	{ 0x40000000, 0, 1 },		/* zero length: dropped */
	{ 0xfeffc000, 0x4000, 9 },	/* unknown type -> reserved */
	{ 0x100000000, 0x40000000, 1 },
};

/* ------------------------------------------------------------ PVH tests */

static void test_pvh_full(void)
{
	char longname[100];
	memset(longname, 'm', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';

	img_reset();
	pvh_header(PVH_START_MAGIC, 1, 3, PA(PVH_MODLIST), PA(PVH_CMDLINE), 0xf5a30,
		   PA(PVH_MEMMAP), 8);
	strcpy((char *)img + PVH_CMDLINE, "console=ttyS0 test=pvh");
	pvh_module(0, 0x1000000, 0x5000, PA(PVH_MODNAMES));
	pvh_module(1, 0x1100000, 0x123, 0);	/* no cmdline: empty name */
	pvh_module(2, 0x1200000, 0x10, PA(PVH_MODNAMES + 0x100));
	strcpy((char *)img + PVH_MODNAMES, "initrd.cpio");
	strcpy((char *)img + PVH_MODNAMES + 0x100, longname);
	pvh_memmap(pvh_mm, 8);

	int rc = pvh_parse();
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_pvh_loader();
	expect_str("cmdline", bi.cmdline, "console=ttyS0 test=pvh");
	expect_u64("rsdp", bi.rsdp, 0xf5a30);
	expect_int("nr_mods", bi.nr_mods, 3);
	expect_mod(0, 0x1000000, 0x5000, "initrd.cpio");
	expect_mod(1, 0x1100000, 0x123, "");
	if (bi.nr_mods > 2) {
		expect_int("mods[2] name length",
			   (long)strnlen(bi.mods[2].name, BOOT_MODNAME_MAX), BOOT_MODNAME_MAX - 1);
		expect_u64("mods[2].start", bi.mods[2].start, 0x1200000);
		expect_u64("mods[2].size", bi.mods[2].size, 0x10);
	}
	expect_int("nr_mem", bi.nr_mem, 7);
	expect_mem(0, 0x0, 0x9fc00, BOOT_MEM_USABLE);
	expect_mem(1, 0x9fc00, 0x400, BOOT_MEM_RESERVED);
	expect_mem(2, 0xf0000, 0x10000, BOOT_MEM_RESERVED);
	expect_mem(3, 0x100000, 0x3fee0000, BOOT_MEM_USABLE);
	expect_mem(4, 0x3ffe0000, 0x20000, BOOT_MEM_ACPI);
	expect_mem(5, 0xfeffc000, 0x4000, BOOT_MEM_RESERVED);
	expect_mem(6, 0x100000000, 0x40000000, BOOT_MEM_USABLE);
	expect_u64("usable bytes", bootinfo_usable_bytes(&bi),
		   0x9fc00ull + 0x3fee0000 + 0x40000000);
	expect_u64("usable top", bootinfo_usable_top(&bi), 0x140000000);
	ok(nbad == 0, "pvh: full start_info (cmdline, 3 modules, 8-entry memmap, rsdp)");
}

static void test_pvh_minimal(void)
{
	/* No cmdline, no modules (a bogus modlist must not be touched). */
	img_reset();
	pvh_header(PVH_START_MAGIC, 1, 0, 0xdead0000, 0, 0, PA(PVH_MEMMAP), 1);
	pvh_memmap(&pvh_mm[3], 1);
	int rc = pvh_parse();
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_pvh_loader();
	expect_str("cmdline", bi.cmdline, "");
	expect_int("nr_mods", bi.nr_mods, 0);
	expect_u64("rsdp", bi.rsdp, 0);
	expect_int("nr_mem", bi.nr_mem, 1);
	expect_mem(0, 0x100000, 0x3fee0000, BOOT_MEM_USABLE);
	expect_u64("usable bytes", bootinfo_usable_bytes(&bi), 0x3fee0000);
	expect_u64("usable top", bootinfo_usable_top(&bi), 0x3ffe0000);
	ok(nbad == 0, "pvh: no cmdline, no modules");

	/* Modules count with a zero modlist address: none. */
	img_reset();
	pvh_header(PVH_START_MAGIC, 1, 2, 0, 0, 0, PA(PVH_MEMMAP), 1);
	pvh_memmap(&pvh_mm[3], 1);
	rc = pvh_parse();
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("nr_mods", bi.nr_mods, 0);
	ok(nbad == 0, "pvh: nr_modules with modlist_paddr 0 -> no modules");
}

static void test_pvh_long_and_caps(void)
{
	img_reset();
	memset(img + PVH_CMDLINE, 'k', 700);
	img[PVH_CMDLINE + 700] = '\0';
	pvh_header(PVH_START_MAGIC, 1, BOOT_MAX_MODULES + 4, PA(PVH_MODLIST), PA(PVH_CMDLINE), 0,
		   PA(PVH_MEMMAP), BOOT_MAX_MEM_RANGES + 6);
	for (uint32_t i = 0; i < BOOT_MAX_MODULES + 4; i++) {
		size_t name = PVH_MODNAMES + i * 0x80;
		snprintf((char *)img + name, 0x80, "m%u", i);
		pvh_module(i, 0x2000000 + i * 0x100000ull, 0x1000 + i, PA(name));
	}
	static struct ent mm[BOOT_MAX_MEM_RANGES + 6];
	for (size_t i = 0; i < ARRAY_SIZE(mm); i++)
		mm[i] = (struct ent){ 0x200000 * (i + 1), 0x2000, 1 };
	pvh_memmap(mm, ARRAY_SIZE(mm));

	int rc = pvh_parse();
	expect_int("return", rc, 0);
	expect_no_phys_errors();
	expect_int("cmdline length", (long)strnlen(bi.cmdline, sizeof(bi.cmdline)),
		   BOOT_CMDLINE_MAX - 1);
	expect_int("nr_mods", bi.nr_mods, BOOT_MAX_MODULES);
	expect_mod(0, 0x2000000, 0x1000, "m0");
	expect_mod(BOOT_MAX_MODULES - 1, 0x2000000 + (BOOT_MAX_MODULES - 1) * 0x100000ull,
		   0x1000 + BOOT_MAX_MODULES - 1, "m15");
	expect_int("nr_mem", bi.nr_mem, BOOT_MAX_MEM_RANGES);
	expect_mem(BOOT_MAX_MEM_RANGES - 1, 0x200000ull * BOOT_MAX_MEM_RANGES, 0x2000,
		   BOOT_MEM_USABLE);
	ok(nbad == 0, "pvh: long cmdline truncated, modules and memmap capped");
}

static void test_pvh_malformed(void)
{
	int rc;

	img_reset();
	pvh_header(0x336ec579, 1, 0, 0, PA(PVH_CMDLINE), 0xf5a30, PA(PVH_MEMMAP), 1);
	strcpy((char *)img + PVH_CMDLINE, "should-not-be-read");
	pvh_memmap(&pvh_mm[3], 1);
	rc = pvh_parse();
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_pvh_loader();
	expect_str("cmdline", bi.cmdline, "");
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "pvh: bad magic -> -1");

	/* A structure with some other magic (here the multiboot2 one). */
	img_reset();
	put32(PVH_SI, MB2_BOOT_MAGIC);
	rc = pvh_parse();
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "pvh: zeroed/foreign structure -> -1");

	/* Version 0 has no memory map fields (whatever lies there is junk). */
	img_reset();
	pvh_header(PVH_START_MAGIC, 0, 0, 0, PA(PVH_CMDLINE), 0, PA(PVH_MEMMAP), 1);
	strcpy((char *)img + PVH_CMDLINE, "v0");
	pvh_memmap(&pvh_mm[3], 1);
	rc = pvh_parse();
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_pvh_loader();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "pvh: version 0 -> -1");

	img_reset();
	pvh_header(PVH_START_MAGIC, 1, 0, 0, 0, 0, 0, 4);
	rc = pvh_parse();
	expect_int("return", rc, -1);
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "pvh: memmap_paddr 0 -> -1");

	/* An empty memory map must not read anything (the kernel then panics
	 * on nr_mem == 0). */
	img_reset();
	pvh_header(PVH_START_MAGIC, 1, 0, 0, 0, 0, PA(PVH_MEMMAP), 0);
	rc = pvh_parse();
	expect_no_phys_errors();
	expect_int("nr_mem", bi.nr_mem, 0);
	ok(nbad == 0, "pvh: memmap_entries 0 -> no ranges");
}

/* ------------------------------------------------------- cmdline_get */

/* Runs cmdline_get with a buffer surrounded by canaries; checks the result,
 * the value and that nothing outside out[0..outlen) was written. */
static void cl_check(const char *cmdline, const char *key, size_t outlen, bool want_found,
		     const char *want_val, const char *desc)
{
	char buf[64 + 2 * 8];
	char *out = buf + 8;
	memset(buf, '#', sizeof(buf));
	nbad = 0;

	bool found = cmdline_get(cmdline, key, out, outlen);
	if (found != want_found)
		bad("cmdline_get(\"%s\", \"%s\") returned %d, want %d", cmdline, key, found,
		    want_found);
	if (want_found && want_val && outlen > 0) {
		if (memchr(out, '\0', outlen) == NULL)
			bad("value is not NUL-terminated within outlen %zu", outlen);
		else
			expect_str("value", out, want_val);
	}
	for (size_t i = 0; i < sizeof(buf); i++) {
		bool inside = i >= 8 && i < 8 + outlen;
		if (!inside && buf[i] != '#') {
			bad("byte %ld outside out[0..%zu) was written", (long)i - 8, outlen);
			break;
		}
	}
	ok(nbad == 0, "cmdline_get: %s", desc);
}

static void test_cmdline_get(void)
{
	const char *cl = "console=ttyS0 test=all quiet";

	cl_check(cl, "test", 32, true, "all", "\"test=all\" -> \"all\"");
	cl_check(cl, "console", 32, true, "ttyS0", "first word");
	cl_check(cl, "quiet", 32, true, "", "bare key at end -> true, empty value");
	cl_check("quiet console=ttyS0", "quiet", 32, true, "", "bare key at start");
	cl_check(cl, "debug", 32, false, NULL, "missing key -> false");
	cl_check(cl, "tes", 32, false, NULL, "key that is a prefix of a word -> false");
	cl_check(cl, "testall", 32, false, NULL, "key longer than word -> false");
	cl_check("testing=1", "test", 32, false, NULL, "\"test\" does not match \"testing=1\"");
	cl_check("testing", "test", 32, false, NULL, "\"test\" does not match bare \"testing\"");
	cl_check("testing=1 test=2", "test", 32, true, "2", "\"test\" after \"testing=1\"");
	cl_check("test=2 testing=1", "testing", 32, true, "1", "\"testing\" after \"test=2\"");
	cl_check("test", "testing", 32, false, NULL, "\"testing\" does not match \"test\"");
	cl_check("xtest=1", "test", 32, false, NULL, "key must start at a word boundary");
	cl_check("Test=1", "test", 32, false, NULL, "keys are case-sensitive");
	cl_check("root=/dev/sda1 ro", "root", 32, true, "/dev/sda1", "value with slashes");
	cl_check("opt=a=b", "opt", 32, true, "a=b", "value containing '='");
	cl_check("a=1 verbose=", "verbose", 32, true, "", "\"key=\" at end -> empty value");
	cl_check("a=1 verbose", "verbose", 32, true, "", "key at end without value");

	cl_check("root=/dev/sda1", "root", 5, true, "/dev", "value truncated to outlen-1");
	cl_check("root=/dev/sda1", "root", 10, true, "/dev/sda1", "value exactly fits outlen");
	cl_check("root=/dev/sda1", "root", 9, true, "/dev/sda", "value one too long for outlen");
	cl_check("root=/dev/sda1", "root", 1, true, "", "outlen 1 -> empty value");
	cl_check("root=/dev/sda1", "root", 0, true, NULL, "outlen 0 -> found, nothing written");
	cl_check("quiet", "quiet", 0, true, NULL, "bare key, outlen 0 -> nothing written");

	cl_check("  \t a=1 \t\t  b=22\n c  \t", "a", 32, true, "1", "leading spaces and tabs");
	cl_check("  \t a=1 \t\t  b=22\n c  \t", "b", 32, true, "22",
		 "multiple spaces, tabs and newline between words");
	cl_check("  \t a=1 \t\t  b=22\n c  \t", "c", 32, true, "", "bare key before trailing blanks");
	cl_check("  \t a=1 \t\t  b=22\n c  \t", "d", 32, false, NULL, "missing key among blanks");
	cl_check("a=x\ty=2", "a", 32, true, "x", "tab ends a value");

	cl_check("", "test", 32, false, NULL, "empty cmdline -> false");
	cl_check(" \t \n ", "test", 32, false, NULL, "blank cmdline -> false");
	cl_check("=x a", "", 32, false, NULL, "empty key -> false");
}

/* ------------------------------------------------------------------ main */

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* keep results if a test dies */
	alarm(30); /* a parser stuck in a loop fails instead of hanging */

	test_mb2_realistic();
	test_mb2_entry_size();
	test_mb2_stops_at_end();
	test_mb2_cmdline_unterminated();
	test_mb2_long_strings();
	test_mb2_caps();
	test_mb2_malformed();

	test_pvh_full();
	test_pvh_minimal();
	test_pvh_long_and_caps();
	test_pvh_malformed();

	test_cmdline_get();

	free(mem);
	return tap_done();
}
