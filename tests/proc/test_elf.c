/* Host unit test for kernel/lib/elf.c (static ELF64 executable checks).
 * Prints TAP.
 *
 * Images are built in memory by a writer that puts each field at its byte
 * offset from the ELF-64 specification (independent of the structs in
 * elf.h), then parsed from an exactly sized heap copy so ASan reports any
 * read past the file. Also parses the host's own /proc/self/exe (PIE:
 * rejected) and a tiny static binary compiled at test time (accepted). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf.h"
#include "tap.h"

/* ---------------------------------------------------------- image model */

#define USER_TOP 0x0000800000000000ull
#define PT_NOTE 4
#define PT_PHDR 6
#define PT_TLS 7
#define PT_GNU_STACK 0x6474e551u
#define PT_GNU_PROPERTY 0x6474e553u
#define MAX_PH 40

struct tph {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

struct timg {
	uint8_t ident[16];
	uint16_t type, machine, ehsize, phentsize, phnum;
	uint32_t version;
	uint64_t entry, phoff;
	unsigned nph;
	struct tph ph[MAX_PH];
	size_t len;       /* file length */
	bool fix_phnum;   /* phnum = nph when serializing */
};

static uint8_t buf[1 << 20];

static void put16(size_t off, uint16_t v) { memcpy(buf + off, &v, 2); }
static void put32(size_t off, uint32_t v) { memcpy(buf + off, &v, 4); }
static void put64(size_t off, uint64_t v) { memcpy(buf + off, &v, 8); }

/* Three loads (text RX with the headers, rodata R, data RW with bss)
 * surrounded by headers the parser must skip. */
static void default_img(struct timg *t)
{
	static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	static const struct tph ph[] = {
		{ PT_PHDR, PF_R, 64, 0x400040, 8 * 56, 8 * 56 },
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x1234, 0x1234 },
		{ PT_NOTE, PF_R, 0x1200, 0x401200, 0x20, 0x20 },
		{ PT_LOAD, PF_R, 0x2000, 0x402000, 0x100, 0x100 },
		{ PT_LOAD, PF_R | PF_W, 0x3000, 0x404000, 0x80, 0x5000 },
		{ PT_TLS, PF_R, 0x3000, 0x404000, 0x10, 0x20 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0 },
		{ PT_GNU_PROPERTY, PF_R, 0x1200, 0x401200, 0x20, 0x20 },
	};

	memset(t, 0, sizeof(*t));
	memcpy(t->ident, ident, 16);
	t->type = ET_EXEC;
	t->machine = EM_X86_64;
	t->version = EV_CURRENT;
	t->ehsize = 64;
	t->phentsize = 56;
	t->entry = 0x400100;
	t->phoff = 64;
	t->nph = sizeof(ph) / sizeof(ph[0]);
	memcpy(t->ph, ph, sizeof(ph));
	t->len = 0x3080;
	t->fix_phnum = true;
}

/* Fields at their ELF-64 spec offsets; file bytes are a pattern. */
static void serialize(const struct timg *t)
{
	for (size_t i = 0; i < t->len && i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	memcpy(buf, t->ident, 16);
	put16(16, t->type);
	put16(18, t->machine);
	put32(20, t->version);
	put64(24, t->entry);
	put64(32, t->phoff);
	put64(40, 0);           /* e_shoff */
	put32(48, 0);           /* e_flags */
	put16(52, t->ehsize);
	put16(54, t->phentsize);
	put16(56, t->fix_phnum ? (uint16_t)t->nph : t->phnum);
	put16(58, 64);
	put16(60, 0);
	put16(62, 0);
	for (unsigned i = 0; i < t->nph; i++) {
		size_t o = 64 + (size_t)i * 56; /* writer always puts them here */
		put32(o + 0, t->ph[i].type);
		put32(o + 4, t->ph[i].flags);
		put64(o + 8, t->ph[i].offset);
		put64(o + 16, t->ph[i].vaddr);
		put64(o + 24, t->ph[i].vaddr); /* p_paddr */
		put64(o + 32, t->ph[i].filesz);
		put64(o + 40, t->ph[i].memsz);
		put64(o + 48, 0x1000);
	}
}

static bool image_zero(const struct elf_image *im)
{
	static const struct elf_image zero;
	return memcmp(im, &zero, sizeof(zero)) == 0;
}

/* elf_parse on the first len bytes of src, from an exactly sized heap copy
 * placed at byte offset `shift` (to test unaligned files). On failure also
 * checks that *out was zeroed; returns 1 if it was not. */
static int parse_bytes(const uint8_t *src, size_t len, size_t shift,
		       uint64_t top, struct elf_image *out)
{
	uint8_t *p = xmalloc(len + shift);
	int rc;

	memcpy(p + shift, src, len);
	memset(out, 0xAA, sizeof(*out));
	rc = elf_parse(p + shift, len, top, out);
	free(p);
	if (rc != 0 && !image_zero(out))
		return 1;
	return rc;
}

static int parse_top(const struct timg *t, uint64_t top, struct elf_image *out)
{
	serialize(t);
	return parse_bytes(buf, t->len, 0, top, out);
}

static int parse(const struct timg *t)
{
	struct elf_image out;
	return parse_top(t, USER_TOP, &out);
}

static bool seg_is(const struct elf_segment *s, uint64_t vaddr, uint64_t memsz,
		   uint64_t filesz, uint64_t offset, bool r, bool w, bool x)
{
	return s->vaddr == vaddr && s->memsz == memsz && s->filesz == filesz &&
	       s->offset == offset && s->r == r && s->w == w && s->x == x;
}

/* Index in t->ph of the n-th PT_LOAD of the default image. */
#define TEXT 1
#define RODATA 3
#define DATA 4

/* ---------------------------------------------------------------- tests */

static void test_valid(void)
{
	struct timg t;
	struct elf_image im;
	int rc;

	default_img(&t);
	rc = parse_top(&t, USER_TOP, &im);
	ok(rc == 0 && im.entry == 0x400100 && im.nsegs == 3 &&
	   seg_is(&im.segs[0], 0x400000, 0x1234, 0x1234, 0, true, false, true) &&
	   seg_is(&im.segs[1], 0x402000, 0x100, 0x100, 0x2000, true, false, false) &&
	   seg_is(&im.segs[2], 0x404000, 0x5000, 0x80, 0x3000, true, true, false),
	   "3-segment image: exact fields, other header types skipped (rc %d)", rc);

	serialize(&t);
	ok(parse_bytes(buf, t.len, 1, USER_TOP, &im) == 0 && im.nsegs == 3,
	   "file at an odd address parses the same");
	ok(parse_bytes(buf, t.len + 100, 0, USER_TOP, &im) == 0,
	   "trailing bytes beyond the segments are fine");

	default_img(&t);
	t.ident[EI_OSABI] = ELFOSABI_GNU;
	ok(parse(&t) == 0, "OS ABI GNU accepted");

	default_img(&t);
	t.ph[DATA].flags = PF_R | PF_W | PF_X;
	t.entry = 0x408fff;
	ok(parse(&t) == 0, "entry in the last (bss) byte of an executable load");

	default_img(&t);
	t.ph[TEXT].flags = 0;
	t.ph[DATA].flags = PF_X;
	t.entry = 0x404000;
	rc = parse_top(&t, USER_TOP, &im);
	ok(rc == 0 && !im.segs[0].r && !im.segs[0].w && !im.segs[0].x &&
	   !im.segs[2].r && !im.segs[2].w && im.segs[2].x,
	   "permission flags reported individually");

	default_img(&t);
	t.ph[t.nph++] = (struct tph){ PT_LOAD, PF_R, 0x3000, 0x500000, 0, 0 };
	rc = parse_top(&t, USER_TOP, &im);
	ok(rc == 0 && im.nsegs == 3, "PT_LOAD with memsz 0 is dropped");
	t.ph[t.nph - 1].vaddr = 0;
	t.ph[t.nph - 1].offset = 0;
	ok(parse(&t) == -ENOEXEC, "PT_LOAD with memsz 0 is still range-checked");

	default_img(&t);
	t.ph[TEXT].vaddr = 0x1000;
	t.ph[TEXT].offset = 0x1000;
	t.ph[TEXT].filesz = t.ph[TEXT].memsz = 0x200;
	t.entry = 0x1000;
	ok(parse(&t) == 0, "load at 0x1000 (lowest allowed page)");
}

static void test_ehdr(void)
{
	struct timg t;
	bool all = true;

	for (int i = 0; i < 4; i++) {
		default_img(&t);
		t.ident[i] ^= 0x20;
		all &= parse(&t) == -ENOEXEC;
	}
	ok(all, "each magic byte checked");

	default_img(&t); t.ident[EI_CLASS] = 1;
	ok(parse(&t) == -ENOEXEC, "ELFCLASS32 rejected");
	default_img(&t); t.ident[EI_DATA] = 2;
	ok(parse(&t) == -ENOEXEC, "big-endian rejected");
	default_img(&t); t.ident[EI_VERSION] = 0;
	ok(parse(&t) == -ENOEXEC, "e_ident version 0 rejected");
	default_img(&t); t.ident[EI_OSABI] = 9;
	ok(parse(&t) == -ENOEXEC, "OS ABI FreeBSD rejected");
	default_img(&t); t.type = 3;
	ok(parse(&t) == -ENOEXEC, "ET_DYN rejected");
	default_img(&t); t.type = 1;
	ok(parse(&t) == -ENOEXEC, "ET_REL rejected");
	default_img(&t); t.machine = 3;
	ok(parse(&t) == -ENOEXEC, "EM_386 rejected");
	default_img(&t); t.machine = 183;
	ok(parse(&t) == -ENOEXEC, "EM_AARCH64 rejected");
	default_img(&t); t.version = 0;
	ok(parse(&t) == -ENOEXEC, "e_version 0 rejected");
	default_img(&t); t.ehsize = 52;
	ok(parse(&t) == -ENOEXEC, "e_ehsize 52 rejected");

	all = true;
	for (unsigned s = 0; s < 3; s++) {
		static const uint16_t sizes[] = { 0, 32, 57 };
		default_img(&t);
		t.phentsize = sizes[s];
		all &= parse(&t) == -ENOEXEC;
	}
	ok(all, "phentsize 0, 32, 57 rejected");

	default_img(&t); t.fix_phnum = false; t.phnum = 0;
	ok(parse(&t) == -ENOEXEC, "phnum 0 (no PT_LOAD) rejected");
}

static void test_phdr_table(void)
{
	struct timg t;

	default_img(&t); t.phoff = t.len;
	ok(parse(&t) == -ENOEXEC, "phoff at end of file rejected");
	default_img(&t); t.phoff = t.len - t.nph * 56 + 1;
	ok(parse(&t) == -ENOEXEC, "program headers one byte past the end rejected");
	default_img(&t); t.phoff = UINT64_MAX - 100;
	ok(parse(&t) == -ENOEXEC, "phoff + phnum*56 wrapping rejected");
	default_img(&t); t.phoff = UINT64_MAX;
	ok(parse(&t) == -ENOEXEC, "phoff UINT64_MAX rejected");
	default_img(&t); t.fix_phnum = false; t.phnum = 0xffff;
	ok(parse(&t) == -ENOEXEC, "phnum 0xffff (table past the end) rejected");

	/* Table exactly at the end of the file is fine. */
	default_img(&t);
	t.len = 0x4000;
	t.phoff = 0x4000 - t.nph * 56;
	serialize(&t);
	for (unsigned i = 0; i < t.nph; i++)
		memcpy(buf + t.phoff + i * 56, buf + 64 + i * 56, 56);
	{
		struct elf_image im;
		ok(parse_bytes(buf, t.len, 0, USER_TOP, &im) == 0 && im.nsegs == 3,
		   "program header table ending exactly at end of file");
	}
}

static void test_load_rules(void)
{
	struct timg t;

	default_img(&t); t.ph[RODATA].filesz = 0x101;
	ok(parse(&t) == -ENOEXEC, "filesz > memsz rejected");
	default_img(&t); t.ph[RODATA].offset = 0x5000;
	ok(parse(&t) == -ENOEXEC, "offset past the end of file rejected");
	default_img(&t); t.ph[DATA].filesz = 0x81;
	ok(parse(&t) == -ENOEXEC, "offset + filesz one past the end rejected");
	default_img(&t);
	t.ph[RODATA].offset = UINT64_MAX & ~0xfffull;
	t.ph[RODATA].filesz = 0x2000;
	t.ph[RODATA].memsz = 0x2000;
	ok(parse(&t) == -ENOEXEC, "offset + filesz wrapping rejected");

	default_img(&t);
	t.ph[DATA].vaddr = 0xFFFFFFFFFFFFF000ull;
	t.ph[DATA].memsz = 0x2000;
	ok(parse_top(&t, UINT64_MAX, &(struct elf_image){0}) == -ENOEXEC,
	   "vaddr + memsz wrapping rejected (user_top UINT64_MAX)");
	default_img(&t); t.ph[DATA].memsz = UINT64_MAX;
	ok(parse_top(&t, UINT64_MAX, &(struct elf_image){0}) == -ENOEXEC,
	   "memsz UINT64_MAX rejected");

	default_img(&t);
	t.ph[DATA].vaddr = USER_TOP - 0x1000;
	t.ph[DATA].memsz = 0x1000;
	ok(parse(&t) == 0, "load ending exactly at user_top accepted");
	t.ph[DATA].memsz = 0x1001;
	ok(parse(&t) == -ENOEXEC, "load one byte past user_top rejected");
	t.ph[DATA].vaddr = USER_TOP;
	t.ph[DATA].memsz = 0x80;
	ok(parse(&t) == -ENOEXEC, "load at user_top rejected");

	/* data ends at 0x408800, i.e. page 0x408000..0x409000 */
	default_img(&t); t.ph[DATA].memsz = 0x4800;
	ok(parse_top(&t, 0x409000, &(struct elf_image){0}) == 0,
	   "rounded end == user_top accepted");
	ok(parse_top(&t, 0x408900, &(struct elf_image){0}) == -ENOEXEC,
	   "end below an unaligned user_top but its page is not: rejected");
	ok(parse_top(&t, 0, &(struct elf_image){0}) == -ENOEXEC, "user_top 0 rejects all");

	default_img(&t);
	t.ph[TEXT].vaddr = 0;
	t.ph[TEXT].memsz = t.ph[TEXT].filesz = 0x200;
	t.entry = 0x100;
	ok(parse(&t) == -ENOEXEC, "load in page 0 rejected");
	t.ph[TEXT].vaddr = 0x10;
	t.ph[TEXT].offset = 0x10;
	t.entry = 0x100;
	ok(parse(&t) == -ENOEXEC, "load starting inside page 0 rejected");

	default_img(&t); t.ph[RODATA].vaddr = 0x402001;
	ok(parse(&t) == -ENOEXEC, "vaddr %% 4096 != offset %% 4096 rejected");
	default_img(&t); t.ph[RODATA].vaddr = 0x402000 + 0x10;
	t.ph[RODATA].offset = 0x2010;
	t.ph[RODATA].filesz = t.ph[RODATA].memsz = 0xf0;
	ok(parse(&t) == 0, "unaligned but congruent vaddr/offset accepted");
}

static void test_overlap(void)
{
	struct timg t;

	/* text covers 0x400000..0x401234 -> pages up to 0x402000 */
	default_img(&t);
	t.ph[RODATA].vaddr = 0x401800;
	t.ph[RODATA].offset = 0x1800;
	ok(parse(&t) == -ENOEXEC, "loads sharing a page after rounding rejected");
	default_img(&t);
	t.ph[RODATA].vaddr = 0x400000 + 0x2000 - 0x1000;
	t.ph[RODATA].offset = 0x1000;
	ok(parse(&t) == -ENOEXEC, "load inside another rejected");
	default_img(&t);
	t.ph[RODATA] = t.ph[TEXT];
	ok(parse(&t) == -ENOEXEC, "identical loads rejected");
	default_img(&t);
	t.ph[RODATA].vaddr = 0x3ff000;
	t.ph[RODATA].offset = 0x2000;
	t.ph[RODATA].memsz = 0x1001;
	ok(parse(&t) == -ENOEXEC, "load overlapping the start of another rejected");
	/* DATA ends at 0x409000; a load right there is adjacent, not overlapping */
	default_img(&t);
	t.ph[RODATA].vaddr = 0x409000;
	ok(parse(&t) == 0, "adjacent pages accepted");
}

static void test_types_and_entry(void)
{
	struct timg t;

	default_img(&t); t.ph[2].type = PT_INTERP;
	ok(parse(&t) == -ENOEXEC, "PT_INTERP rejected");
	default_img(&t); t.ph[2].type = PT_DYNAMIC;
	ok(parse(&t) == -ENOEXEC, "PT_DYNAMIC rejected");
	default_img(&t);
	for (unsigned i = 0; i < t.nph; i++)
		if (t.ph[i].type == PT_LOAD)
			t.ph[i].type = PT_NOTE;
	ok(parse(&t) == -ENOEXEC, "no PT_LOAD rejected");
	default_img(&t);
	t.ph[RODATA].memsz = t.ph[RODATA].filesz = 0;
	t.ph[TEXT] = t.ph[RODATA];
	t.ph[DATA] = t.ph[RODATA];
	ok(parse(&t) == -ENOEXEC, "only empty PT_LOADs rejected");

	default_img(&t); t.entry = 0x500000;
	ok(parse(&t) == -ENOEXEC, "entry outside every segment rejected");
	default_img(&t); t.entry = 0x402010;
	ok(parse(&t) == -ENOEXEC, "entry in a non-executable segment rejected");
	default_img(&t); t.entry = 0x404000;
	ok(parse(&t) == -ENOEXEC, "entry in the writable data segment rejected");
	default_img(&t); t.entry = 0x401234;
	ok(parse(&t) == -ENOEXEC, "entry one past the end of text rejected");
	t.entry = 0x401233;
	ok(parse(&t) == 0, "entry at the last byte of text accepted");
	t.entry = 0x3fffff;
	ok(parse(&t) == -ENOEXEC, "entry just before text rejected");
	t.entry = 0;
	ok(parse(&t) == -ENOEXEC, "entry 0 rejected");
}

/* n loads one page apart, all in the headers' file page. */
static void many_loads(struct timg *t, unsigned n)
{
	default_img(t);
	t->nph = 0;
	for (unsigned i = 0; i < n; i++)
		t->ph[t->nph++] = (struct tph){
			PT_LOAD, PF_R | PF_X, 0, 0x400000 + 0x1000ull * i, 0x800, 0x800 };
	t->entry = 0x400000;
	t->len = 0x1000;
}

static void test_segment_limit(void)
{
	struct timg t;
	struct elf_image im;
	int rc;

	many_loads(&t, ELF_MAX_SEGMENTS);
	rc = parse_top(&t, USER_TOP, &im);
	ok(rc == 0 && im.nsegs == ELF_MAX_SEGMENTS &&
	   im.segs[15].vaddr == 0x40f000, "exactly %d loads accepted", ELF_MAX_SEGMENTS);
	many_loads(&t, ELF_MAX_SEGMENTS + 1);
	ok(parse(&t) == -E2BIG, "%d loads: -E2BIG", ELF_MAX_SEGMENTS + 1);
	many_loads(&t, MAX_PH);
	ok(parse(&t) == -E2BIG, "%d loads: -E2BIG", MAX_PH);
	many_loads(&t, ELF_MAX_SEGMENTS + 1);
	t.ph[3].vaddr = t.ph[2].vaddr;
	ok(parse(&t) == -E2BIG, "too many loads reported before overlap");
	many_loads(&t, ELF_MAX_SEGMENTS + 1);
	t.ph[t.nph++] = (struct tph){ PT_INTERP, PF_R, 0, 0, 1, 1 };
	ok(parse(&t) == -ENOEXEC, "a rejected header type wins over -E2BIG");
	many_loads(&t, ELF_MAX_SEGMENTS);
	t.ph[t.nph++] = (struct tph){ PT_LOAD, PF_R, 0, 0x500000, 0, 0 };
	ok(parse(&t) == 0, "empty loads do not count toward the limit");
}

static void test_every_prefix(void)
{
	struct timg t;
	struct elf_image im;
	size_t bad = 0;
	bool good = true;

	default_img(&t);
	serialize(&t);
	for (size_t n = 0; n < t.len && good; n++) {
		good = parse_bytes(buf, n, 0, USER_TOP, &im) == -ENOEXEC;
		bad = n;
	}
	ok(good, "every proper prefix (0..%zu bytes) is -ENOEXEC with *out zeroed", t.len - 1);
	if (!good)
		tap_diag("prefix length %zu misparsed", bad);
	ok(parse_bytes(buf, t.len, 0, USER_TOP, &im) == 0, "full length parses");
}

/* Every single-byte change in the headers: any result, never OOB. */
static void test_corruption(void)
{
	static const uint8_t vals[] = { 0, 1, 0x7f, 0x80, 0xff };
	struct timg t;
	struct elf_image im;
	uint8_t *orig;
	size_t hdr_end;
	bool good = true;

	default_img(&t);
	serialize(&t);
	hdr_end = 64 + t.nph * 56;
	orig = xmalloc(t.len);
	memcpy(orig, buf, t.len);
	for (size_t i = 0; i < hdr_end; i++)
		for (unsigned v = 0; v < sizeof(vals); v++) {
			memcpy(buf, orig, t.len);
			buf[i] = vals[v];
			int rc = parse_bytes(buf, t.len, 0, USER_TOP, &im);
			good &= rc == 0 || rc == -ENOEXEC;
			if (rc == 0)
				good &= im.nsegs >= 1 && im.nsegs <= 3;
		}
	free(orig);
	ok(good, "single-byte header corruptions give 0 or -ENOEXEC, never OOB");
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *p;

	if (!f)
		return NULL;
	p = xmalloc(cap);
	while ((got = fread(p + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *q = realloc(p, cap *= 2);
			if (!q)
				tap_bail("out of memory");
			p = q;
		}
	}
	fclose(f);
	*len = n;
	return p;
}

static void test_host_binaries(const char *parent)
{
	struct elf_image im;
	char dir[1024], cmd[4096], path[2048];
	uint8_t *file;
	size_t len;
	int rc = 1;

	file = slurp("/proc/self/exe", &len);
	if (ok(file != NULL, "read /proc/self/exe")) {
		rc = parse_bytes(file, len, 0, USER_TOP, &im);
		ok(rc == -ENOEXEC, "host test binary (PIE/dynamic) rejected (rc %d)", rc);
	}
	free(file);

	/* A static non-PIE program as a real linker lays it out. */
	snprintf(dir, sizeof(dir), "%s/arbor-elf-XXXXXX", parent);
	if (!ok(mkdtemp(dir) != NULL, "create temp dir under %s", parent))
		return;
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	FILE *f = fopen(path, "w");
	bool wrote = f != NULL;
	if (f) {
		fputs("int counter = 1; char bss[8192];\n"
		      "void _start(void) { counter += bss[0]; for (;;) { } }\n", f);
		wrote = fclose(f) == 0;
	}
	snprintf(cmd, sizeof(cmd),
		 "gcc -static -nostdlib -no-pie -fno-pie -O1 -o '%s/prog' '%s/prog.c'",
		 dir, dir);
	if (ok(wrote && system(cmd) == 0, "compile a static test program")) {
		snprintf(path, sizeof(path), "%s/prog", dir);
		file = slurp(path, &len);
		uint64_t entry = 0;
		if (file && len >= 32)
			memcpy(&entry, file + 24, 8);
		rc = file ? parse_bytes(file, len, 0, USER_TOP, &im) : -1;
		ok(rc == 0 && im.entry == entry && im.nsegs >= 2,
		   "static linker output accepted (rc %d, %u loads)", rc, im.nsegs);
		free(file);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", dir);
}

int main(int argc, char **argv)
{
	test_valid();
	test_ehdr();
	test_phdr_table();
	test_load_rules();
	test_overlap();
	test_types_and_entry();
	test_segment_limit();
	test_every_prefix();
	test_corruption();
	test_host_binaries(argc > 1 ? argv[1] : "/tmp");
	return tap_done();
}
