/* ACPI RSDP/RSDT/XSDT/MADT parsing; rules in acpi.h. Every length from the
 * firmware is compared against the room already known to be readable
 * before anything at that offset is touched; offsets are only ever added
 * after such a comparison, so hostile values cannot wrap past a check. */
#include "acpi.h"

/* RSDP field offsets */
#define RSDP_CHECKSUM   8
#define RSDP_REVISION   15
#define RSDP_RSDT       16
#define RSDP_LENGTH     20
#define RSDP_XSDT       24

/* System description table header offsets */
#define SDT_LENGTH      4

/* MADT */
#define MADT_LAPIC_ADDR 36
#define MADT_FLAGS      40
#define MADT_REVISION   8

#define MADT_LAPIC           0
#define MADT_IOAPIC          1
#define MADT_ISO             2
#define MADT_LAPIC_NMI       4
#define MADT_LAPIC_ADDR_OVR  5

#define MADT_LAPIC_LEN          8
#define MADT_IOAPIC_LEN         12
#define MADT_ISO_LEN            10
#define MADT_LAPIC_NMI_LEN      6
#define MADT_LAPIC_ADDR_OVR_LEN 12

#define ISA_BUS 0
#define NO_APIC_ID 0xFF

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static bool bytes_eq(const uint8_t *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != (uint8_t)b[i])
			return false;
	return true;
}

static uint8_t sum8(const uint8_t *p, uint64_t n)
{
	uint8_t s = 0;

	for (uint64_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

/* [pa, pa + len) readable? Never asks for an empty or wrapping range, and
 * never for physical address 0 (which means "none" throughout ACPI). */
static const uint8_t *map(acpi_phys_fn phys, uint64_t pa, uint64_t len)
{
	if (pa == 0 || len == 0 || len - 1 > UINT64_MAX - pa)
		return NULL;
	return phys(pa, len);
}

/* The RSDP at pa, of which only `room` bytes may be read. Returns it mapped
 * over its whole checked length, or NULL. */
static const uint8_t *rsdp_check(acpi_phys_fn phys, uint64_t pa, uint64_t room)
{
	const uint8_t *p;
	uint32_t len;

	if (room < ACPI_RSDP_V1_LEN)
		return NULL;
	p = map(phys, pa, ACPI_RSDP_V1_LEN);
	if (!p || !bytes_eq(p, "RSD PTR ", 8) || sum8(p, ACPI_RSDP_V1_LEN) != 0)
		return NULL;
	if (p[RSDP_REVISION] < 2)
		return p;

	if (room < ACPI_RSDP_V2_LEN)
		return NULL;
	p = map(phys, pa, ACPI_RSDP_V2_LEN);
	if (!p)
		return NULL;
	len = rd32(p + RSDP_LENGTH);
	if (len < ACPI_RSDP_V2_LEN || len > ACPI_RSDP_MAX_LEN || len > room)
		return NULL;
	p = map(phys, pa, len);
	/* The 20-byte part was checked through another mapping: check it
	 * again through this one, so what the caller reads was verified. */
	if (!p || !bytes_eq(p, "RSD PTR ", 8) || p[RSDP_REVISION] < 2 ||
	    rd32(p + RSDP_LENGTH) != len || sum8(p, ACPI_RSDP_V1_LEN) != 0 ||
	    sum8(p, len) != 0)
		return NULL;
	return p;
}

/* Bytes from pa to the top of the address space (pa == 0 fails in map()
 * anyway, so it gets 0 rather than 2^64). */
static uint64_t room_to_top(uint64_t pa)
{
	return pa ? UINT64_MAX - pa + 1 : 0;
}

bool acpi_rsdp_valid(acpi_phys_fn phys, uint64_t pa)
{
	return rsdp_check(phys, pa, room_to_top(pa)) != NULL;
}

uint64_t acpi_find_rsdp(acpi_phys_fn phys, uint64_t start, uint64_t len)
{
	uint64_t off = (16 - (start & 15)) & 15;

	if (len > UINT64_MAX - start)
		len = UINT64_MAX - start;
	/* off < len and len - off >= 20 keep start + off and off + 16 from
	 * wrapping; the loop runs at most len / 16 times. */
	for (; off < len && len - off >= ACPI_RSDP_V1_LEN; off += 16)
		if (rsdp_check(phys, start + off, len - off))
			return start + off;
	return 0;
}

uint64_t acpi_find_rsdp_legacy(acpi_phys_fn phys)
{
	const uint8_t *bda = map(phys, ACPI_BDA_EBDA_SEG, 2);
	uint64_t rsdp = 0;

	if (bda) {
		uint64_t ebda = (uint64_t)rd16(bda) << 4;

		if (ebda >= 0x80000 && ebda < 0xA0000)
			rsdp = acpi_find_rsdp(phys, ebda,
					      MIN(ACPI_EBDA_SCAN_LEN, 0xA0000 - ebda));
	}
	if (!rsdp)
		rsdp = acpi_find_rsdp(phys, ACPI_BIOS_ROM_BASE, ACPI_BIOS_ROM_LEN);
	return rsdp;
}

/* The table at pa, mapped over its whole checked length, or NULL. */
static const uint8_t *table_check(acpi_phys_fn phys, uint64_t pa, const char *sig,
				  uint32_t *lenp)
{
	const uint8_t *p = map(phys, pa, ACPI_SDT_HDR_LEN);
	uint32_t len;

	if (!p || (sig && !bytes_eq(p, sig, 4)))
		return NULL;
	len = rd32(p + SDT_LENGTH);
	if (len < ACPI_SDT_HDR_LEN || len > ACPI_MAX_TABLE_LEN)
		return NULL;
	p = map(phys, pa, len);
	/* Re-check what was decided through the first mapping. */
	if (!p || (sig && !bytes_eq(p, sig, 4)) || rd32(p + SDT_LENGTH) != len ||
	    sum8(p, len) != 0)
		return NULL;
	*lenp = len;
	return p;
}

bool acpi_table_valid(acpi_phys_fn phys, uint64_t pa, const char sig[4], uint32_t *len)
{
	uint32_t l;

	if (!table_check(phys, pa, sig, &l))
		return false;
	if (len)
		*len = l;
	return true;
}

/* Searches the RSDT (esize 4) or XSDT (esize 8) at root. Returns false if
 * the root table itself is unusable; otherwise true, with *found the first
 * valid listed table with signature sig, or 0. */
static bool search_root(acpi_phys_fn phys, uint64_t root, const char *root_sig,
			unsigned esize, const char *sig, uint64_t *found)
{
	uint32_t len, n;
	const uint8_t *t = table_check(phys, root, root_sig, &len);

	*found = 0;
	if (!t || (len - ACPI_SDT_HDR_LEN) % esize != 0)
		return false;
	n = (len - ACPI_SDT_HDR_LEN) / esize; /* bounded by ACPI_MAX_TABLE_LEN */
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = t + ACPI_SDT_HDR_LEN + (uint64_t)i * esize;
		uint64_t pa = esize == 8 ? rd64(e) : rd32(e);
		uint32_t tlen;

		if (pa && table_check(phys, pa, sig, &tlen)) {
			*found = pa;
			break;
		}
	}
	return true;
}

uint64_t acpi_find_table(acpi_phys_fn phys, uint64_t rsdp, const char sig[4])
{
	const uint8_t *r = rsdp_check(phys, rsdp, room_to_top(rsdp));
	uint64_t found;

	if (!r)
		return 0;
	if (r[RSDP_REVISION] >= 2) {
		uint64_t xsdt = rd64(r + RSDP_XSDT);

		if (xsdt && search_root(phys, xsdt, "XSDT", 8, sig, &found))
			return found;
	}
	if (search_root(phys, rd32(r + RSDP_RSDT), "RSDT", 4, sig, &found))
		return found;
	return 0;
}

void acpi_madt_defaults(struct acpi_madt_info *info)
{
	uint8_t *b = (uint8_t *)info;

	for (size_t i = 0; i < sizeof(*info); i++)
		b[i] = 0;
	for (unsigned irq = 0; irq < 16; irq++)
		info->isa_gsi[irq] = irq; /* isa_flags stay 0: conforms */
}

/* One entry, e[0..elen) with elen >= 2. Returns false if malformed. */
static bool madt_entry(struct acpi_madt_info *info, const uint8_t *e, uint8_t elen,
		       bool online_capable_ok)
{
	switch (e[0]) {
	case MADT_LAPIC: {
		uint32_t flags;
		bool usable;

		if (elen < MADT_LAPIC_LEN)
			return false;
		flags = rd32(e + 4);
		usable = (flags & ACPI_LAPIC_ENABLED) ||
			 (online_capable_ok && (flags & ACPI_LAPIC_ONLINE_CAPABLE));
		if (!usable || e[3] == NO_APIC_ID)
			break;
		if (info->nr_cpus >= ACPI_MAX_CPUS) {
			info->cpus_dropped++;
			break;
		}
		info->cpu_uids[info->nr_cpus] = e[2];
		info->cpu_apic_ids[info->nr_cpus] = e[3];
		info->cpu_enabled[info->nr_cpus] = flags & ACPI_LAPIC_ENABLED;
		info->nr_cpus++;
		break;
	}
	case MADT_IOAPIC: {
		struct acpi_ioapic *io;

		if (elen < MADT_IOAPIC_LEN)
			return false;
		if (info->nr_ioapics >= ACPI_MAX_IOAPICS) {
			info->ioapics_dropped++;
			break;
		}
		io = &info->ioapics[info->nr_ioapics++];
		io->id = e[2];
		io->addr = rd32(e + 4);
		io->gsi_base = rd32(e + 8);
		break;
	}
	case MADT_ISO:
		if (elen < MADT_ISO_LEN)
			return false;
		if (e[2] == ISA_BUS && e[3] < 16) {
			info->isa_gsi[e[3]] = rd32(e + 4);
			info->isa_flags[e[3]] = rd16(e + 8);
		}
		break;
	case MADT_LAPIC_NMI: {
		struct acpi_lapic_nmi *nmi;

		if (elen < MADT_LAPIC_NMI_LEN)
			return false;
		if (info->nr_lapic_nmis >= ACPI_MAX_LAPIC_NMIS) {
			info->lapic_nmis_dropped++;
			break;
		}
		nmi = &info->lapic_nmis[info->nr_lapic_nmis++];
		nmi->uid = e[2];
		nmi->flags = rd16(e + 3);
		nmi->lint = e[5];
		break;
	}
	case MADT_LAPIC_ADDR_OVR:
		if (elen < MADT_LAPIC_ADDR_OVR_LEN)
			return false;
		info->lapic_addr = rd64(e + 4);
		break;
	default:
		break;
	}
	return true;
}

int acpi_parse_madt(acpi_phys_fn phys, uint64_t madt, struct acpi_madt_info *info)
{
	const uint8_t *t;
	uint32_t len, off;
	bool have_override = false;
	bool online_capable_ok;

	acpi_madt_defaults(info);
	t = table_check(phys, madt, "APIC", &len);
	if (!t || len < ACPI_MADT_HDR_LEN)
		return -1;
	info->lapic_addr = rd32(t + MADT_LAPIC_ADDR);
	info->pcat_compat = rd32(t + MADT_FLAGS) & ACPI_MADT_PCAT_COMPAT;
	online_capable_ok = t[MADT_REVISION] >= 5;

	/* Each step advances off by elen >= 2, so at most len / 2 steps. */
	for (off = ACPI_MADT_HDR_LEN; off < len;) {
		const uint8_t *e = t + off;
		uint8_t elen;

		if (len - off < 2)
			return -1;
		elen = e[1];
		if (elen < 2 || elen > len - off)
			return -1;
		if (e[0] == MADT_LAPIC_ADDR_OVR) {
			/* The override wins wherever it sits; keep the first. */
			uint64_t before = info->lapic_addr;

			if (!madt_entry(info, e, elen, online_capable_ok))
				return -1;
			if (have_override)
				info->lapic_addr = before;
			have_override = true;
		} else if (!madt_entry(info, e, elen, online_capable_ok)) {
			return -1;
		}
		off += elen;
	}
	return 0;
}

bool acpi_isa_level_triggered(const struct acpi_madt_info *i, unsigned irq)
{
	if (irq >= 16)
		return false;
	return (i->isa_flags[irq] & ACPI_INTI_TRIGGER_MASK) == ACPI_INTI_TRIG_LEVEL;
}

bool acpi_isa_active_low(const struct acpi_madt_info *i, unsigned irq)
{
	if (irq >= 16)
		return false;
	return (i->isa_flags[irq] & ACPI_INTI_POLARITY_MASK) == ACPI_INTI_POL_LOW;
}
