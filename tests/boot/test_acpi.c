/* Host unit test for kernel/lib/acpi.c (RSDP search, RSDT/XSDT walk, MADT
 * parsing). Prints TAP.
 *
 * Synthetic firmware memory is a set of regions, each an exactly sized heap
 * block standing for one physical range (low memory, each table), so ASan
 * reports any read past a table. The phys callback returns NULL for any
 * request not wholly inside one region and counts those refusals; it also
 * counts requests the library promises never to make (empty or wrapping).
 * Tables are written field by field at the byte offsets of the ACPI
 * specification, independently of the library's code. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "tap.h"

/* ------------------------------------------------------- physical memory */

#define MAX_REGIONS 32

struct region {
	uint64_t pa, len;
	uint8_t *p;
};

static struct region regions[MAX_REGIONS];
static unsigned nregions;
static unsigned nrefused; /* requests answered with NULL */
static unsigned nbadreq;  /* empty or wrapping requests (library bug) */

static const void *phys(uint64_t pa, uint64_t len)
{
	if (len == 0 || len - 1 > UINT64_MAX - pa) {
		nbadreq++;
		return NULL;
	}
	for (unsigned i = 0; i < nregions; i++) {
		struct region *r = &regions[i];

		if (pa >= r->pa && pa - r->pa <= r->len && len <= r->len - (pa - r->pa))
			return r->p + (pa - r->pa);
	}
	nrefused++;
	return NULL;
}

static uint8_t *add_region(uint64_t pa, uint64_t len)
{
	struct region *r;

	if (nregions == MAX_REGIONS)
		tap_bail("too many regions");
	r = &regions[nregions++];
	r->pa = pa;
	r->len = len;
	r->p = xmalloc(len);
	memset(r->p, 0, len);
	return r->p;
}

/* Adds a region holding a copy of n bytes of src. */
static uint8_t *add_copy(uint64_t pa, const uint8_t *src, uint64_t n)
{
	uint8_t *p = add_region(pa, n);

	memcpy(p, src, n);
	return p;
}

static void reset_mem(void)
{
	for (unsigned i = 0; i < nregions; i++)
		free(regions[i].p);
	nregions = 0;
	nrefused = 0;
	nbadreq = 0;
}

/* ------------------------------------------------------------ writers */

static void put8(uint8_t *p, size_t off, uint8_t v) { p[off] = v; }
static void put16(uint8_t *p, size_t off, uint16_t v)
{
	p[off] = (uint8_t)v;
	p[off + 1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}
static void putstr(uint8_t *p, size_t off, const char *s, size_t n)
{
	memcpy(p + off, s, n);
}

/* Sets p[at] so that p[0..n) sums to zero. */
static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)(0x100 - s);
}

/* RSDP: "RSD PTR " @0, checksum @8, OEMID @9, revision @15, RSDT @16;
 * from revision 2: length @20, XSDT @24, extended checksum @32. */
static void make_rsdp(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	memset(p, 0, rev >= 2 ? 36 : 20);
	putstr(p, 0, "RSD PTR ", 8);
	putstr(p, 9, "BOCHS ", 6);
	put8(p, 15, rev);
	put32(p, 16, rsdt);
	fix_sum(p, 20, 8);
	if (rev >= 2) {
		put32(p, 20, 36);
		put64(p, 24, xsdt);
		fix_sum(p, 36, 32);
	}
}

/* Table header: signature @0, length @4, revision @8, checksum @9, OEMID
 * @10, OEM table ID @16, OEM revision @24, creator ID @28, creator rev @32. */
static void sdt_header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	putstr(t, 0, sig, 4);
	put32(t, 4, len);
	put8(t, 8, rev);
	putstr(t, 10, "BOCHS ", 6);
	putstr(t, 16, "BXPC    ", 8);
	put32(t, 24, 1);
	putstr(t, 28, "BXPC", 4);
	put32(t, 32, 1);
}

static void seal(uint8_t *t, size_t len)
{
	fix_sum(t, len, 9);
}

/* ------------------------------------------------------------ MADT model */

struct madt_b {
	uint8_t b[4096];
	size_t len;
};

static void madt_begin(struct madt_b *m, uint8_t rev, uint32_t lapic, uint32_t flags)
{
	memset(m->b, 0, sizeof(m->b));
	sdt_header(m->b, "APIC", 0, rev);
	put32(m->b, 36, lapic);
	put32(m->b, 40, flags);
	m->len = 44;
}

static uint8_t *madt_entry(struct madt_b *m, uint8_t type, uint8_t len)
{
	uint8_t *e = m->b + m->len;

	if (m->len + (len ? len : 2) > sizeof(m->b))
		tap_bail("madt model overflow");
	e[0] = type;
	e[1] = len;
	m->len += len ? len : 2;
	return e;
}

static void madt_lapic(struct madt_b *m, uint8_t uid, uint8_t apic, uint32_t flags)
{
	uint8_t *e = madt_entry(m, 0, 8);
	put8(e, 2, uid);
	put8(e, 3, apic);
	put32(e, 4, flags);
}

static void madt_ioapic(struct madt_b *m, uint8_t id, uint32_t addr, uint32_t gsi)
{
	uint8_t *e = madt_entry(m, 1, 12);
	put8(e, 2, id);
	put32(e, 4, addr);
	put32(e, 8, gsi);
}

static void madt_iso(struct madt_b *m, uint8_t bus, uint8_t src, uint32_t gsi, uint16_t flags)
{
	uint8_t *e = madt_entry(m, 2, 10);
	put8(e, 2, bus);
	put8(e, 3, src);
	put32(e, 4, gsi);
	put16(e, 8, flags);
}

static void madt_lapic_nmi(struct madt_b *m, uint8_t uid, uint16_t flags, uint8_t lint)
{
	uint8_t *e = madt_entry(m, 4, 6);
	put8(e, 2, uid);
	put16(e, 3, flags);
	put8(e, 5, lint);
}

static void madt_lapic_ovr(struct madt_b *m, uint64_t addr)
{
	uint8_t *e = madt_entry(m, 5, 12);
	put64(e, 4, addr);
}

static void madt_end(struct madt_b *m)
{
	put32(m->b, 4, (uint32_t)m->len);
	seal(m->b, m->len);
}

/* QEMU i440fx with one CPU: LAPIC id 0, IOAPIC 0 at 0xFEC00000 GSI 0,
 * overrides 0->2 (conforms), 5, 9, 10, 11 level active high, LINT1 NMI. */
static void madt_qemu(struct madt_b *m)
{
	madt_begin(m, 1, 0xFEE00000u, 1);
	madt_lapic(m, 0, 0, 1);
	madt_ioapic(m, 0, 0xFEC00000u, 0);
	madt_iso(m, 0, 0, 2, 0x0000);
	madt_iso(m, 0, 5, 5, 0x000D);
	madt_iso(m, 0, 9, 9, 0x000D);
	madt_iso(m, 0, 10, 10, 0x000D);
	madt_iso(m, 0, 11, 11, 0x000D);
	madt_lapic_nmi(m, 0xFF, 0, 1);
	madt_end(m);
}

/* ----------------------------------------------------- firmware layout */

#define LOW_LEN   0x100000ull      /* [0, 1 MiB): BDA, EBDA, BIOS area */
#define RSDP_PA   0xF5A30ull
#define EBDA_PA   0x9FC00ull
#define RSDT_PA   0x7FE1000ull
#define XSDT_PA   0x7FE1100ull
#define FACP_PA   0x7FE2000ull
#define MADT_PA   0x7FE3000ull
#define HPET_PA   0x7FE4000ull
#define MADT2_PA  0x100003000ull   /* above 4 GiB: only the XSDT can list it */
#define NOWHERE   0x7FF0000ull     /* not mapped */

static uint8_t *low;

static uint8_t *add_table(uint64_t pa, const char *sig, uint32_t len, uint8_t rev)
{
	uint8_t *t = add_region(pa, len);

	sdt_header(t, sig, len, rev);
	seal(t, len);
	return t;
}

static void add_rsdt(uint64_t pa, const uint32_t *ents, unsigned n)
{
	uint32_t len = 36 + 4 * n;
	uint8_t *t = add_region(pa, len);

	sdt_header(t, "RSDT", len, 1);
	for (unsigned i = 0; i < n; i++)
		put32(t, 36 + 4 * i, ents[i]);
	seal(t, len);
}

static void add_xsdt(uint64_t pa, const uint64_t *ents, unsigned n)
{
	uint32_t len = 36 + 8 * n;
	uint8_t *t = add_region(pa, len);

	sdt_header(t, "XSDT", len, 1);
	for (unsigned i = 0; i < n; i++)
		put64(t, 36 + 8 * i, ents[i]);
	seal(t, len);
}

/* Low memory with the BDA pointing at an empty EBDA, plus FACP, MADT (QEMU
 * layout) and HPET tables, and the RSDT listing them. No RSDP yet. */
static void base_firmware(void)
{
	struct madt_b m;
	uint32_t rsdt[3] = { FACP_PA, MADT_PA, HPET_PA };

	reset_mem();
	low = add_region(0, LOW_LEN);
	put16(low, 0x40E, EBDA_PA >> 4);
	add_table(FACP_PA, "FACP", 116, 1);
	add_table(HPET_PA, "HPET", 56, 1);
	madt_qemu(&m);
	add_copy(MADT_PA, m.b, m.len);
	add_rsdt(RSDT_PA, rsdt, 3);
}

/* -------------------------------------------------------- MADT checks */

static void check_qemu_madt(const struct acpi_madt_info *i, const char *what)
{
	ok(i->lapic_addr == 0xFEE00000u, "%s: lapic_addr 0x%llx", what,
		   (unsigned long long)i->lapic_addr);
	ok(i->pcat_compat, "%s: pcat_compat", what);
	ok(i->nr_cpus == 1 && i->cpu_apic_ids[0] == 0 && i->cpu_uids[0] == 0 &&
		   i->cpu_enabled[0] && i->cpus_dropped == 0,
		   "%s: one enabled CPU, APIC id 0, UID 0", what);
	ok(i->nr_ioapics == 1 && i->ioapics[0].id == 0 &&
		   i->ioapics[0].addr == 0xFEC00000u && i->ioapics[0].gsi_base == 0 &&
		   i->ioapics_dropped == 0,
		   "%s: IOAPIC id 0 at 0xFEC00000, GSI base 0", what);

	bool gsi_ok = true, flags_ok = true, dec_ok = true;
	for (unsigned irq = 0; irq < 16; irq++) {
		bool lvl = irq == 5 || irq == 9 || irq == 10 || irq == 11;
		uint32_t want_gsi = irq == 0 ? 2 : irq;

		gsi_ok &= i->isa_gsi[irq] == want_gsi;
		flags_ok &= i->isa_flags[irq] == (lvl ? 0xD : 0);
		dec_ok &= acpi_isa_level_triggered(i, irq) == lvl;
		dec_ok &= !acpi_isa_active_low(i, irq);
	}
	ok(gsi_ok, "%s: ISA->GSI map (0->2, rest identity)", what);
	ok(flags_ok, "%s: ISA flags (5,9,10,11 = 0xD, rest 0)", what);
	ok(dec_ok, "%s: decoded: 5,9,10,11 level, all active high", what);
	ok(i->nr_lapic_nmis == 1 && i->lapic_nmis[0].uid == 0xFF &&
		   i->lapic_nmis[0].flags == 0 && i->lapic_nmis[0].lint == 1 &&
		   i->lapic_nmis_dropped == 0,
		   "%s: LAPIC NMI on LINT1 of every CPU", what);
}

/* Parses m (sealed) placed alone in an exactly sized region. */
static int parse_alone(const struct madt_b *m, struct acpi_madt_info *info)
{
	int r;

	reset_mem();
	add_copy(MADT_PA, m->b, m->len);
	memset(info, 0xA5, sizeof(*info));
	r = acpi_parse_madt(phys, MADT_PA, info);
	reset_mem();
	return r;
}

/* --------------------------------------------------------------- tests */

static void test_rsdp_v1_rsdt(void)
{
	struct acpi_madt_info info;
	uint64_t r;

	base_firmware();
	make_rsdp(low + RSDP_PA, 0, RSDT_PA, 0);

	r = acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN);
	ok(r == RSDP_PA, "rev 0 RSDP found in the BIOS area (0x%llx)", (unsigned long long)r);
	ok(acpi_find_rsdp_legacy(phys) == RSDP_PA, "legacy search: empty EBDA, then BIOS area");
	ok(acpi_rsdp_valid(phys, RSDP_PA), "rev 0 RSDP valid");
	ok(!acpi_rsdp_valid(phys, RSDP_PA + 16), "no RSDP 16 bytes later");
	ok(!acpi_rsdp_valid(phys, 0), "physical address 0 is never an RSDP");

	ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT_PA, "RSDT: APIC found");
	ok(acpi_find_table(phys, RSDP_PA, "FACP") == FACP_PA, "RSDT: FACP found");
	ok(acpi_find_table(phys, RSDP_PA, "HPET") == HPET_PA, "RSDT: HPET found");
	ok(acpi_find_table(phys, RSDP_PA, "SSDT") == 0, "RSDT: SSDT absent");
	ok(acpi_find_table(phys, RSDP_PA, "RSDT") == 0, "RSDT does not list itself");
	ok(acpi_find_table(phys, 0, "APIC") == 0, "find_table from RSDP 0");
	ok(acpi_find_table(phys, RSDP_PA + 16, "APIC") == 0, "find_table from a non-RSDP");

	uint32_t len = 0;
	ok(acpi_table_valid(phys, FACP_PA, "FACP", &len) && len == 116,
	   "table_valid FACP, length 116");
	ok(acpi_table_valid(phys, MADT_PA, NULL, NULL), "table_valid, any signature");
	ok(!acpi_table_valid(phys, MADT_PA, "FACP", NULL), "table_valid, wrong signature");

	memset(&info, 0xA5, sizeof(info));
	ok(acpi_parse_madt(phys, MADT_PA, &info) == 0, "QEMU MADT parses");
	check_qemu_madt(&info, "rsdt");
	ok(acpi_parse_madt(phys, FACP_PA, &info) == -1, "parse_madt on the FACP fails");
	ok(info.nr_cpus == 0 && info.nr_ioapics == 0 && info.isa_gsi[0] == 0 &&
	   info.isa_gsi[15] == 15 && info.lapic_addr == 0 && !info.pcat_compat,
	   "failed parse leaves zeroed defaults");
	ok(nrefused == 0 && nbadreq == 0, "valid firmware: no refused or bad requests");
}

static void test_rsdp_v2_xsdt(void)
{
	struct acpi_madt_info info;
	struct madt_b m;
	uint64_t xs[3] = { FACP_PA, MADT2_PA, HPET_PA };

	base_firmware();
	/* A second MADT above 4 GiB, listed only by the XSDT, two CPUs. */
	madt_begin(&m, 3, 0xFEE00000u, 0);
	madt_lapic(&m, 0, 0, 1);
	madt_lapic(&m, 1, 1, 1);
	madt_ioapic(&m, 2, 0xFEC00000u, 0);
	madt_end(&m);
	add_copy(MADT2_PA, m.b, m.len);
	add_xsdt(XSDT_PA, xs, 3);
	make_rsdp(low + RSDP_PA, 2, RSDT_PA, XSDT_PA);

	ok(acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN) == RSDP_PA,
	   "rev 2 RSDP found");
	ok(acpi_rsdp_valid(phys, RSDP_PA), "rev 2 RSDP valid");
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT2_PA,
	   "XSDT preferred: 64-bit MADT address above 4 GiB");
	ok(acpi_find_table(phys, RSDP_PA, "FACP") == FACP_PA, "XSDT: FACP found");
	ok(acpi_parse_madt(phys, MADT2_PA, &info) == 0 && info.nr_cpus == 2 &&
	   info.cpu_apic_ids[1] == 1 && info.cpu_uids[1] == 1 && !info.pcat_compat &&
	   info.nr_ioapics == 1 && info.ioapics[0].id == 2,
	   "XSDT MADT: 2 CPUs, no PC-AT compat, IOAPIC id 2");

	/* Revision 2, XSDT address 0: the RSDT is used. */
	make_rsdp(low + RSDP_PA, 2, RSDT_PA, 0);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT_PA, "rev 2, XSDT 0: RSDT used");

	/* Revision 0 ignores the XSDT field even if bytes follow. */
	make_rsdp(low + RSDP_PA, 0, RSDT_PA, 0);
	put64(low + RSDP_PA, 24, XSDT_PA);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT_PA, "rev 0: XSDT field ignored");
	ok(nrefused == 0 && nbadreq == 0, "no refused or bad requests");
}

static void test_rsdp_search(void)
{
	uint8_t *p;

	/* Bad checksum first, a valid one later: skipped, found. */
	base_firmware();
	make_rsdp(low + 0xE0000, 0, RSDT_PA, 0);
	low[0xE0000 + 8] ^= 1;
	make_rsdp(low + 0xE0040, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN) == 0xE0040,
	   "bad RSDP checksum skipped, later valid one found");

	/* A valid RSDP off the 16-byte grid is not found. */
	base_firmware();
	make_rsdp(low + 0xE0008, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN) == 0,
	   "RSDP off a 16-byte boundary not found");
	ok(acpi_rsdp_valid(phys, 0xE0008), "... though it is valid");

	/* Unaligned start: the grid is absolute, not relative to start. */
	base_firmware();
	make_rsdp(low + 0xE0010, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp(phys, 0xE0001, 0x100) == 0xE0010, "unaligned start rounds up");
	ok(acpi_find_rsdp(phys, 0xE0011, 0x100) == 0, "start past it: not found");

	/* Bad extended checksum: rejected, search continues. */
	base_firmware();
	make_rsdp(low + 0xE0000, 2, RSDT_PA, XSDT_PA);
	low[0xE0000 + 33] ^= 0x40; /* reserved byte: 20-byte sum still fine */
	make_rsdp(low + 0xE0100, 0, RSDT_PA, 0);
	ok(!acpi_rsdp_valid(phys, 0xE0000), "bad extended checksum: invalid");
	ok(acpi_find_table(phys, 0xE0000, "APIC") == 0, "bad extended checksum: find_table 0");
	ok(acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN) == 0xE0100,
	   "bad extended checksum skipped, later one found");

	/* Revision 2 with an impossible length (both checksums fixed). */
	base_firmware();
	p = low + 0xE0000;
	make_rsdp(p, 2, RSDT_PA, 0);
	put32(p, 20, 20);
	fix_sum(p, 36, 32);
	ok(!acpi_rsdp_valid(phys, 0xE0000), "rev 2 RSDP length 20 rejected");
	put32(p, 20, 0xFFFFFFF0u);
	fix_sum(p, 36, 32);
	ok(!acpi_rsdp_valid(phys, 0xE0000), "rev 2 RSDP length 0xFFFFFFF0 rejected");
	/* A longer (64-byte) RSDP is fine if the checksum covers it. */
	put32(p, 20, 64);
	put8(p, 40, 0x77);
	fix_sum(p, 64, 32);
	ok(acpi_rsdp_valid(phys, 0xE0000), "rev 2 RSDP length 64 accepted");
	ok(acpi_find_rsdp(phys, 0xE0000, 63) == 0, "... but not if the range holds 63 bytes");
	ok(acpi_find_rsdp(phys, 0xE0000, 64) == 0xE0000, "... found if it holds 64");

	/* Partial RSDP at the very end of the range. */
	base_firmware();
	{
		uint8_t tmp[20];

		make_rsdp(tmp, 0, RSDT_PA, 0);
		memcpy(low + 0xFFFF0, tmp, 16); /* the rest would be past 1 MiB */
	}
	ok(acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN) == 0 && nrefused == 0,
	   "RSDP in the last 16 bytes: not found, nothing read past the range");
	base_firmware();
	make_rsdp(low + 0xE0100, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp(phys, 0xE0000, 0x114) == 0xE0100, "rev 0 ending exactly at the range end");
	ok(acpi_find_rsdp(phys, 0xE0000, 0x113) == 0, "rev 0 one byte past the range end");
	base_firmware();
	make_rsdp(low + 0xE0100, 2, RSDT_PA, XSDT_PA);
	ok(acpi_find_rsdp(phys, 0xE0000, 0x120) == 0, "rev 2 with only 32 bytes in range");
	ok(acpi_find_rsdp(phys, 0xE0000, 0x124) == 0xE0100, "rev 2 with 36 bytes in range");

	/* A scan range running off mapped memory, and one wrapping 2^64. */
	base_firmware();
	ok(acpi_find_rsdp(phys, 0xF0000, 0x20000) == 0 && nrefused > 0,
	   "scan into unmapped memory: refused requests, nothing found");
	nrefused = 0;
	ok(acpi_find_rsdp(phys, UINT64_MAX - 100, 1000) == 0 && nbadreq == 0,
	   "scan range wrapping 2^64: no wrapping request");
	ok(acpi_find_rsdp(phys, 0xE0000, 0) == 0 && acpi_find_rsdp(phys, 0xE0000, 19) == 0,
	   "empty and 19-byte ranges");
	ok(!acpi_rsdp_valid(phys, UINT64_MAX - 10) && nbadreq == 0,
	   "rsdp_valid near 2^64: no wrapping request");

	/* Legacy search: the EBDA wins over the BIOS area; a bogus EBDA
	 * pointer is ignored. */
	base_firmware();
	make_rsdp(low + EBDA_PA + 0x30, 0, RSDT_PA, 0);
	make_rsdp(low + RSDP_PA, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp_legacy(phys) == EBDA_PA + 0x30, "legacy search: EBDA first");
	put16(low, 0x40E, 0x0010); /* EBDA at 0x100: not plausible */
	ok(acpi_find_rsdp_legacy(phys) == RSDP_PA, "legacy search: bogus EBDA ignored");
	put16(low, 0x40E, 0x9FFF); /* 0x9FFF0: only 16 bytes below 640K */
	make_rsdp(low + 0x9FFF0, 0, RSDT_PA, 0);
	ok(acpi_find_rsdp_legacy(phys) == RSDP_PA, "legacy search: EBDA scan stops at 640K");
	reset_mem();
	ok(acpi_find_rsdp_legacy(phys) == 0 && nbadreq == 0, "legacy search: no memory at all");
}

static void test_bad_tables(void)
{
	struct acpi_madt_info info;
	uint8_t *t;

	/* MADT length smaller than the header (checksum fixed). */
	base_firmware();
	make_rsdp(low + RSDP_PA, 0, RSDT_PA, 0);
	t = NULL;
	for (unsigned i = 0; i < nregions; i++)
		if (regions[i].pa == MADT_PA)
			t = regions[i].p;
	put32(t, 4, 20);
	seal(t, 20);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "MADT length 20 < header: skipped");
	ok(acpi_parse_madt(phys, MADT_PA, &info) == -1, "MADT length 20: parse fails");
	put32(t, 4, 40); /* a valid table, but too short for a MADT */
	seal(t, 40);
	ok(acpi_table_valid(phys, MADT_PA, "APIC", NULL) &&
	   acpi_parse_madt(phys, MADT_PA, &info) == -1, "MADT length 40 < 44: parse fails");
	put32(t, 4, 44); /* header only: valid, empty */
	seal(t, 44);
	ok(acpi_parse_madt(phys, MADT_PA, &info) == 0 && info.nr_cpus == 0 &&
	   info.lapic_addr == 0xFEE00000u, "MADT with no entries parses");

	/* Length running past the mapped range (region is 120 bytes). */
	put32(t, 4, 4096);
	nrefused = 0;
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0 && nrefused > 0,
	   "MADT length past mapped memory: refused, skipped");
	ok(acpi_parse_madt(phys, MADT_PA, &info) == -1, "... and parse fails");
	put32(t, 4, 0xFFFFFFFFu);
	nrefused = 0;
	ok(acpi_parse_madt(phys, MADT_PA, &info) == -1 && nrefused == 0,
	   "MADT length 0xFFFFFFFF: rejected before mapping");

	/* Bad checksum. */
	base_firmware();
	make_rsdp(low + RSDP_PA, 0, RSDT_PA, 0);
	for (unsigned i = 0; i < nregions; i++)
		if (regions[i].pa == MADT_PA)
			regions[i].p[50] ^= 0x10;
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "MADT bad checksum: skipped");
	ok(acpi_parse_madt(phys, MADT_PA, &info) == -1, "MADT bad checksum: parse fails");

	/* A bad table with the right signature is skipped, a later good one
	 * found; a NULL entry and one pointing outside memory are skipped. */
	{
		struct madt_b m;
		uint32_t rs[5] = { 0, NOWHERE, MADT_PA, 0x7FE5000, FACP_PA };

		base_firmware();
		make_rsdp(low + RSDP_PA, 0, RSDT_PA + 0x200, 0);
		madt_qemu(&m);
		m.b[60] ^= 1; /* bad checksum */
		add_copy(MADT_PA + 0x800, m.b, m.len);
		rs[2] = MADT_PA + 0x800;
		madt_qemu(&m);
		add_copy(0x7FE5000, m.b, m.len);
		add_rsdt(RSDT_PA + 0x200, rs, 5);
		nrefused = 0;
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0x7FE5000,
		   "RSDT: 0, unmapped and bad entries skipped, good MADT found");
		ok(nrefused == 1 && nbadreq == 0, "... exactly one refused request (the unmapped one)");
		ok(acpi_find_table(phys, RSDP_PA, "FACP") == FACP_PA, "... FACP after them found");
	}

	/* RSDT itself outside memory, or with a wrong signature. */
	base_firmware();
	make_rsdp(low + RSDP_PA, 0, NOWHERE, 0);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "RSDT outside memory");
	make_rsdp(low + RSDP_PA, 0, FACP_PA, 0);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "RSDT pointing at the FACP");
	make_rsdp(low + RSDP_PA, 0, 0, 0);
	ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "RSDT address 0");

	/* RSDT with a length that is not a whole number of entries. */
	{
		uint32_t rs[2] = { FACP_PA, MADT_PA };
		uint8_t *r;

		base_firmware();
		r = add_region(RSDT_PA + 0x200, 36 + 8 + 2);
		sdt_header(r, "RSDT", 46, 1);
		put32(r, 36, rs[0]);
		put32(r, 40, rs[1]);
		seal(r, 46);
		make_rsdp(low + RSDP_PA, 0, RSDT_PA + 0x200, 0);
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0, "RSDT length 46: rejected");
	}

	/* XSDT with an odd length: rejected, RSDT used instead (if any). */
	{
		uint64_t xs[2] = { FACP_PA, MADT2_PA };
		uint8_t *x;
		struct madt_b m;

		base_firmware();
		madt_qemu(&m);
		add_copy(MADT2_PA, m.b, m.len);
		x = add_region(XSDT_PA, 36 + 12);
		sdt_header(x, "XSDT", 48, 1);
		put64(x, 36, xs[0]);
		put32(x, 44, (uint32_t)xs[1]);
		seal(x, 48);
		make_rsdp(low + RSDP_PA, 2, RSDT_PA, XSDT_PA);
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT_PA,
		   "XSDT length 48 (1.5 entries): rejected, RSDT used");
		make_rsdp(low + RSDP_PA, 2, 0, XSDT_PA);
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0 &&
		   acpi_find_table(phys, RSDP_PA, "FACP") == 0,
		   "XSDT length 48, no RSDT: nothing found");
		/* A valid XSDT that lacks the table: no fallback to the RSDT. */
		add_xsdt(XSDT_PA + 0x400, xs, 1);
		make_rsdp(low + RSDP_PA, 2, RSDT_PA, XSDT_PA + 0x400);
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == 0 &&
		   acpi_find_table(phys, RSDP_PA, "FACP") == FACP_PA,
		   "valid XSDT without APIC: the RSDT is not consulted");
	}

	/* XSDT entries near 2^64 and with high bits: no wrapping requests. */
	{
		uint64_t xs[4] = { UINT64_MAX, UINT64_MAX - 35, 0x8000000000000000ull, MADT_PA };

		base_firmware();
		add_xsdt(XSDT_PA, xs, 4);
		make_rsdp(low + RSDP_PA, 2, RSDT_PA, XSDT_PA);
		ok(acpi_find_table(phys, RSDP_PA, "APIC") == MADT_PA && nbadreq == 0,
		   "XSDT entries near 2^64 skipped without wrapping requests");
	}

	/* A table whose 32-bit length field only fits in its own region:
	 * length exactly the region (valid), length region + 1 (refused). */
	base_firmware();
	add_table(0x7FE6000, "SSDT", 37, 2);
	ok(acpi_table_valid(phys, 0x7FE6000, "SSDT", NULL), "37-byte table valid");
	for (unsigned i = 0; i < nregions; i++)
		if (regions[i].pa == 0x7FE6000) {
			put32(regions[i].p, 4, 38);
			seal(regions[i].p, 37); /* sum of what exists */
		}
	ok(!acpi_table_valid(phys, 0x7FE6000, "SSDT", NULL), "length one past its region");
	reset_mem();
}

static void test_madt_entries(void)
{
	struct acpi_madt_info info;
	struct madt_b m;
	uint8_t *e;

	/* Entry length 0 and 1: -1, what came before is kept. */
	for (uint8_t l = 0; l < 2; l++) {
		madt_begin(&m, 1, 0xFEE00000u, 1);
		madt_lapic(&m, 0, 3, 1);
		madt_entry(&m, 2, l);
		madt_lapic(&m, 1, 4, 1);
		madt_end(&m);
		ok(parse_alone(&m, &info) == -1 && info.nr_cpus == 1 && info.cpu_apic_ids[0] == 3,
		   "entry length %u: -1, earlier CPU kept", l);
	}
	/* Entry of an unknown type with length 0 is malformed too. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_entry(&m, 0x80, 0);
	madt_end(&m);
	ok(parse_alone(&m, &info) == -1, "unknown type, length 0: -1");

	/* Entry running past the table. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_lapic(&m, 0, 0, 1);
	e = madt_entry(&m, 1, 12);
	put32(e, 4, 0xFEC00000u);
	m.len -= 4; /* table ends 4 bytes into the IOAPIC entry */
	madt_end(&m);
	ok(parse_alone(&m, &info) == -1 && info.nr_cpus == 1 && info.nr_ioapics == 0,
	   "IOAPIC entry running past the table: -1, CPU kept");

	/* A single trailing byte. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_lapic(&m, 0, 0, 1);
	m.b[m.len++] = 0;
	madt_end(&m);
	ok(parse_alone(&m, &info) == -1, "one trailing byte: -1");

	/* Known types shorter than their size. */
	{
		static const struct { uint8_t type, len; } shorts[] = {
			{ 0, 7 }, { 1, 11 }, { 2, 9 }, { 4, 5 }, { 5, 11 },
		};
		for (unsigned i = 0; i < ARRAY_SIZE(shorts); i++) {
			madt_begin(&m, 1, 0xFEE00000u, 1);
			madt_entry(&m, shorts[i].type, shorts[i].len);
			madt_end(&m);
			ok(parse_alone(&m, &info) == -1, "type %u with length %u: -1",
			   shorts[i].type, shorts[i].len);
		}
	}

	/* Unknown and unparsed types skipped; longer known entries accepted;
	 * x2APIC entries (type 9) are not CPUs here. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	e = madt_entry(&m, 9, 16);
	put32(e, 4, 7);
	put32(e, 8, 1);
	madt_entry(&m, 0x7F, 2);
	e = madt_entry(&m, 3, 8); /* NMI source: not recorded */
	put32(e, 4, 5);
	e = madt_entry(&m, 0, 10); /* LAPIC with 2 extra bytes */
	put8(e, 2, 6);
	put8(e, 3, 9);
	put32(e, 4, 1);
	madt_entry(&m, 0xFF, 255);
	madt_end(&m);
	ok(parse_alone(&m, &info) == 0 && info.nr_cpus == 1 && info.cpu_apic_ids[0] == 9 &&
	   info.cpu_uids[0] == 6 && info.isa_gsi[5] == 5,
	   "unknown types (9, 0x7F, 0xFF len 255) and type 3 skipped, long LAPIC entry ok");

	/* CPU flags: disabled skipped, 0xFF skipped, online-capable only
	 * counted from MADT revision 5 and marked not enabled. */
	for (uint8_t rev = 4; rev <= 5; rev++) {
		madt_begin(&m, rev, 0xFEE00000u, 1);
		madt_lapic(&m, 0, 0, 1);
		madt_lapic(&m, 1, 1, 0);    /* disabled */
		madt_lapic(&m, 2, 2, 2);    /* online capable */
		madt_lapic(&m, 3, 0xFF, 1); /* broadcast ID */
		madt_lapic(&m, 4, 4, 3);    /* enabled (bit 1 reserved) */
		madt_end(&m);
		if (rev == 4)
			ok(parse_alone(&m, &info) == 0 && info.nr_cpus == 2 &&
			   info.cpu_apic_ids[0] == 0 && info.cpu_apic_ids[1] == 4 &&
			   info.cpu_enabled[0] && info.cpu_enabled[1] && info.cpus_dropped == 0,
			   "rev 4: disabled, online-capable and APIC id 0xFF CPUs skipped");
		else
			ok(parse_alone(&m, &info) == 0 && info.nr_cpus == 3 &&
			   info.cpu_apic_ids[1] == 2 && !info.cpu_enabled[1] &&
			   info.cpu_uids[1] == 2 && info.cpu_apic_ids[2] == 4 && info.cpu_enabled[2],
			   "rev 5: online-capable CPU listed, not enabled");
	}

	/* More CPUs, IOAPICs and NMIs than the caps. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	for (unsigned i = 0; i < ACPI_MAX_CPUS + 6; i++)
		madt_lapic(&m, (uint8_t)i, (uint8_t)(i + 1), 1);
	for (unsigned i = 0; i < ACPI_MAX_IOAPICS + 2; i++)
		madt_ioapic(&m, (uint8_t)(i + 1), 0xFEC00000u + 0x1000 * i, 24 * i);
	for (unsigned i = 0; i < ACPI_MAX_LAPIC_NMIS + 3; i++)
		madt_lapic_nmi(&m, (uint8_t)i, 5, 1);
	madt_end(&m);
	{
		bool cpus_ok = true, io_ok = true, nmi_ok = true;
		int r = parse_alone(&m, &info);

		for (unsigned i = 0; i < ACPI_MAX_CPUS; i++)
			cpus_ok &= info.cpu_apic_ids[i] == i + 1 && info.cpu_uids[i] == i &&
				   info.cpu_enabled[i];
		for (unsigned i = 0; i < ACPI_MAX_IOAPICS; i++)
			io_ok &= info.ioapics[i].id == i + 1 &&
				 info.ioapics[i].addr == 0xFEC00000u + 0x1000 * i &&
				 info.ioapics[i].gsi_base == 24 * i;
		for (unsigned i = 0; i < ACPI_MAX_LAPIC_NMIS; i++)
			nmi_ok &= info.lapic_nmis[i].uid == i && info.lapic_nmis[i].flags == 5 &&
				  info.lapic_nmis[i].lint == 1;
		ok(r == 0, "over the caps: still parses");
		ok(info.nr_cpus == ACPI_MAX_CPUS && info.cpus_dropped == 6 && cpus_ok,
		   "%u CPUs capped at %u, 6 dropped", ACPI_MAX_CPUS + 6, ACPI_MAX_CPUS);
		ok(info.nr_ioapics == ACPI_MAX_IOAPICS && info.ioapics_dropped == 2 && io_ok,
		   "%u IOAPICs capped at %u, 2 dropped", ACPI_MAX_IOAPICS + 2, ACPI_MAX_IOAPICS);
		ok(info.nr_lapic_nmis == ACPI_MAX_LAPIC_NMIS && info.lapic_nmis_dropped == 3 &&
		   nmi_ok, "LAPIC NMIs capped at %u, 3 dropped", ACPI_MAX_LAPIC_NMIS);
	}

	/* Local APIC address override, before or after other entries; the
	 * first one wins. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_lapic(&m, 0, 0, 1);
	madt_lapic_ovr(&m, 0x123456789000ull);
	madt_end(&m);
	ok(parse_alone(&m, &info) == 0 && info.lapic_addr == 0x123456789000ull,
	   "LAPIC address override (64-bit)");
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_lapic_ovr(&m, 0xFED00000u);
	madt_lapic_ovr(&m, 0xFEB00000u);
	madt_lapic(&m, 0, 0, 1);
	madt_end(&m);
	ok(parse_alone(&m, &info) == 0 && info.lapic_addr == 0xFED00000u,
	   "two overrides: the first wins");

	/* Overrides: bus != 0 and source >= 16 ignored; flag decoding. */
	madt_begin(&m, 1, 0xFEE00000u, 1);
	madt_iso(&m, 1, 3, 40, 0xF);   /* not ISA */
	madt_iso(&m, 0, 16, 41, 0xF);  /* no such ISA IRQ */
	madt_iso(&m, 0, 1, 1, 0x5);    /* edge, active high (explicit) */
	madt_iso(&m, 0, 3, 3, 0xF);    /* level, active low */
	madt_iso(&m, 0, 4, 20, 0x3);   /* edge (conforms), active low */
	madt_iso(&m, 0, 6, 6, 0x8 | 0x2); /* reserved encodings */
	madt_iso(&m, 0, 7, 7, 0xC);    /* level, conforms: active high */
	madt_iso(&m, 0, 15, 15, 0xFFF0 | 0x3); /* high bits set */
	madt_end(&m);
	ok(parse_alone(&m, &info) == 0, "override table parses");
	ok(info.isa_gsi[3] == 3 && info.isa_flags[3] == 0xF && info.isa_gsi[4] == 20 &&
	   info.isa_flags[1] == 0x5 && info.isa_flags[15] == 0xFFF3,
	   "ISA overrides recorded, bus 1 and source 16 ignored");
	ok(!acpi_isa_level_triggered(&info, 1) && !acpi_isa_active_low(&info, 1),
	   "flags 0x5: edge, active high");
	ok(acpi_isa_level_triggered(&info, 3) && acpi_isa_active_low(&info, 3),
	   "flags 0xF: level, active low");
	ok(!acpi_isa_level_triggered(&info, 4) && acpi_isa_active_low(&info, 4),
	   "flags 0x3: edge (conforms), active low");
	ok(!acpi_isa_level_triggered(&info, 6) && !acpi_isa_active_low(&info, 6),
	   "reserved encodings: ISA defaults");
	ok(acpi_isa_level_triggered(&info, 7) && !acpi_isa_active_low(&info, 7),
	   "flags 0xC: level, active high (conforms)");
	ok(!acpi_isa_level_triggered(&info, 15) && acpi_isa_active_low(&info, 15),
	   "flags 0xFFF3: bits 4-15 ignored (edge, active low)");
	ok(!acpi_isa_level_triggered(&info, 16) && !acpi_isa_active_low(&info, 16) &&
	   !acpi_isa_level_triggered(&info, 1000),
	   "IRQ >= 16: false");
}

/* Every truncation of a valid MADT, each in an exactly sized heap block:
 * (a) as cut, the header still claiming the full length: always -1 and
 *     refused, never read past;
 * (b) with length and checksum fixed up: 0 exactly at entry boundaries. */
static void test_truncations(void)
{
	struct acpi_madt_info info;
	struct madt_b m;
	bool a_ok = true, b_ok = true;
	bool boundary[sizeof(m.b) + 1] = { false };
	size_t off;

	madt_qemu(&m);
	madt_lapic_ovr(&m, 0xFEE00000u);
	madt_entry(&m, 0x42, 3);
	madt_end(&m);
	for (off = 44; off < m.len; off += m.b[off + 1])
		boundary[off] = true;
	boundary[m.len] = true;

	for (size_t n = 0; n <= m.len; n++) {
		int r;

		reset_mem();
		if (n)
			add_copy(MADT_PA, m.b, n);
		memset(&info, 0x5A, sizeof(info));
		r = acpi_parse_madt(phys, MADT_PA, &info);
		if (n < m.len ? (r != -1 || nrefused == 0) : r != 0)
			a_ok = false;
		if (nbadreq)
			a_ok = false;
		if (n < 36)
			continue;

		uint8_t *cut = xmalloc(n);
		memcpy(cut, m.b, n);
		put32(cut, 4, (uint32_t)n);
		seal(cut, n);
		reset_mem();
		add_copy(MADT_PA, cut, n);
		free(cut);
		r = acpi_parse_madt(phys, MADT_PA, &info);
		if (r != (n >= 44 && boundary[n] ? 0 : -1) || nrefused || nbadreq)
			b_ok = false;
	}
	reset_mem();
	ok(a_ok, "every truncation (0..%zu bytes), length field unchanged: -1", m.len);
	ok(b_ok, "every truncation with length fixed: 0 exactly at entry boundaries");
}

int main(void)
{
	test_rsdp_v1_rsdt();
	test_rsdp_v2_xsdt();
	test_rsdp_search();
	test_bad_tables();
	test_madt_entries();
	test_truncations();
	reset_mem();
	return tap_done();
}
