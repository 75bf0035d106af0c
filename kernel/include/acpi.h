/* ACPI static tables: finding the RSDP, walking the RSDT/XSDT and parsing
 * the MADT (interrupt controllers and processors). Pure logic with no libc
 * calls and no allocation, so the same code runs in the kernel and in host
 * unit tests. Layouts are from the ACPI specification (sections "Root
 * System Description Pointer", "System Description Table Header", "Multiple
 * APIC Description Table").
 *
 * Firmware tables are untrusted input. Every table is read through the
 * caller's acpi_phys_fn, only ever for ranges whose length has already been
 * checked against what contains it; every structure's checksum is verified
 * before any other field is believed; table lengths are capped at
 * ACPI_MAX_TABLE_LEN, so every loop is bounded. Fields are read byte by
 * byte (tables are often unaligned: XSDT entries sit at offset 36). */
#ifndef ARBOR_ACPI_H
#define ARBOR_ACPI_H

#include "types.h"

/* Translates a physical address range to something readable, or NULL if
 * the range is not readable. The library never asks for a range that wraps
 * past 2^64 or has length 0. Pointers it has returned must stay valid until
 * the acpi_* call that asked for them returns (a direct map is ideal; a
 * single reused mapping window is not enough: acpi_find_table holds the
 * RSDT/XSDT while it looks at the tables it lists). */
typedef const void *(*acpi_phys_fn)(uint64_t pa, uint64_t len);

#define ACPI_MAX_IOAPICS   8
#define ACPI_MAX_CPUS      64
#define ACPI_MAX_LAPIC_NMIS 8

#define ACPI_RSDP_V1_LEN   20          /* ACPI 1.0 part covered by checksum */
#define ACPI_RSDP_V2_LEN   36          /* ACPI 2.0+ structure */
#define ACPI_RSDP_MAX_LEN  1024        /* sanity cap on the RSDP length field */
#define ACPI_SDT_HDR_LEN   36          /* common table header */
#define ACPI_MADT_HDR_LEN  44          /* header + LAPIC address + flags */
#define ACPI_MAX_TABLE_LEN (16u << 20) /* larger "tables" are rejected */

/* Legacy places the RSDP may live (ACPI spec "Finding the RSDP on IA-PC"). */
#define ACPI_BDA_EBDA_SEG  0x40Eu      /* BDA word: EBDA segment */
#define ACPI_EBDA_SCAN_LEN 1024u       /* first 1 KiB of the EBDA */
#define ACPI_BIOS_ROM_BASE 0xE0000u
#define ACPI_BIOS_ROM_LEN  0x20000u    /* 0xE0000 - 0xFFFFF */

/* MADT Flags */
#define ACPI_MADT_PCAT_COMPAT 0x1u
/* Processor Local APIC flags */
#define ACPI_LAPIC_ENABLED        0x1u
#define ACPI_LAPIC_ONLINE_CAPABLE 0x2u /* meaningful from MADT revision 5 */
/* MPS INTI flags (interrupt source overrides, NMI entries) */
#define ACPI_INTI_POLARITY_MASK  0x3u
#define ACPI_INTI_POL_CONFORMS   0x0u
#define ACPI_INTI_POL_HIGH       0x1u
#define ACPI_INTI_POL_LOW        0x3u
#define ACPI_INTI_TRIGGER_MASK   0xCu
#define ACPI_INTI_TRIG_CONFORMS  0x0u
#define ACPI_INTI_TRIG_EDGE      0x4u
#define ACPI_INTI_TRIG_LEVEL     0xCu

struct acpi_ioapic {
	uint8_t id;
	uint32_t addr;
	uint32_t gsi_base;
};

/* Local APIC NMI (MADT type 4): which LINT pin of which processor is
 * wired to NMI. uid 0xFF means every processor. */
struct acpi_lapic_nmi {
	uint8_t uid;   /* ACPI processor UID, matches cpu_uids[] */
	uint16_t flags; /* MPS INTI flags */
	uint8_t lint;  /* 0 = LINT0, 1 = LINT1 */
};

struct acpi_madt_info {
	/* From the MADT header, replaced by a type-5 Local APIC Address
	 * Override wherever it appears in the table. */
	uint64_t lapic_addr;
	bool pcat_compat;                 /* MADT flags bit 0: 8259s present */

	/* Processor Local APIC entries (type 0) that are enabled, or (MADT
	 * revision >= 5 only) online-capable, in table order. Online-capable
	 * processors are NOT running: cpu_enabled[] tells them apart, and
	 * only enabled ones should be sent INIT/SIPI. Entries with APIC ID
	 * 0xFF (the broadcast ID) are ignored. */
	unsigned nr_cpus;
	uint8_t cpu_apic_ids[ACPI_MAX_CPUS];
	uint8_t cpu_uids[ACPI_MAX_CPUS];  /* ACPI processor UIDs */
	bool cpu_enabled[ACPI_MAX_CPUS];
	unsigned cpus_dropped;            /* usable entries beyond the cap */

	unsigned nr_ioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	unsigned ioapics_dropped;         /* entries beyond the cap */

	/* ISA IRQ -> GSI and MPS INTI flags. Defaults: identity, flags 0
	 * ("conforms to the bus": for ISA, active high and edge). Replaced by
	 * type-2 Interrupt Source Overrides with bus 0 and source < 16. Use
	 * acpi_isa_level_triggered() / acpi_isa_active_low() to decode. */
	uint32_t isa_gsi[16];
	uint16_t isa_flags[16];

	unsigned nr_lapic_nmis;
	struct acpi_lapic_nmi lapic_nmis[ACPI_MAX_LAPIC_NMIS];
	unsigned lapic_nmis_dropped;
};

/* Checks the RSDP at physical address pa: signature "RSD PTR ", the ACPI
 * 1.0 checksum over 20 bytes and, for revision >= 2, a length in
 * [36, ACPI_RSDP_MAX_LEN] and the extended checksum over that length. */
bool acpi_rsdp_valid(acpi_phys_fn phys, uint64_t pa);

/* Finds the first valid RSDP (as acpi_rsdp_valid, and lying wholly inside
 * the range) at a 16-byte boundary in [start, start + len): returns its
 * physical address or 0. Invalid candidates are skipped. */
uint64_t acpi_find_rsdp(acpi_phys_fn phys, uint64_t start, uint64_t len);

/* The legacy BIOS search: the first 1 KiB of the EBDA (segment read from
 * the BDA word at 0x40E; used only if it lands in 0x80000-0x9FFFF), then
 * 0xE0000-0xFFFFF. Returns the RSDP's physical address or 0. */
uint64_t acpi_find_rsdp_legacy(acpi_phys_fn phys);

/* From the RSDP at physical address rsdp (validated again here), finds the
 * first valid table with signature sig through the XSDT (if revision >= 2
 * and its address is non-zero) or else the RSDT. A root table must have a
 * valid header, length and checksum and a whole number of entries; if the
 * XSDT is unusable the RSDT is tried instead. Listed tables are checked
 * the same way (header, length, checksum); a bad one is skipped and the
 * search goes on. Returns the table's physical address or 0. */
uint64_t acpi_find_table(acpi_phys_fn phys, uint64_t rsdp, const char sig[4]);

/* Checks one table header at pa: readable, signature sig (NULL: any),
 * ACPI_SDT_HDR_LEN <= length <= ACPI_MAX_TABLE_LEN, the whole length
 * readable and its checksum zero. On success stores the length in *len
 * (if len is not NULL). */
bool acpi_table_valid(acpi_phys_fn phys, uint64_t pa, const char sig[4], uint32_t *len);

/* info zeroed, then the defaults above: what a machine without a MADT
 * (or with a malformed one) is taken to have. */
void acpi_madt_defaults(struct acpi_madt_info *info);
/* Parses the MADT ("APIC") at physical address madt into info (zeroed,
 * then the defaults above, then filled). Returns 0, or -1 if the table is
 * invalid (as acpi_table_valid, or shorter than 44 bytes) or malformed;
 * info then keeps what was parsed before the error. Unknown entry types
 * are skipped. An entry header that does not fit, a length < 2, an entry
 * running past the table, or a known type shorter than its defined size
 * ends the parse with -1. CPUs, I/O APICs and LAPIC NMIs past the caps
 * are counted in *_dropped and otherwise ignored (not an error). */
int acpi_parse_madt(acpi_phys_fn phys, uint64_t madt, struct acpi_madt_info *info);

/* Decoded ISA IRQ trigger mode and polarity (false for irq >= 16). The
 * reserved encodings (10b) are treated like "conforms to the bus". */
bool acpi_isa_level_triggered(const struct acpi_madt_info *i, unsigned irq);
bool acpi_isa_active_low(const struct acpi_madt_info *i, unsigned irq);

#endif
