/* Shared by smp_boot.S and smp.c: where the AP trampoline is copied. The
 * SIPI vector is its page number, so it must be page-aligned below 1 MiB;
 * 0x8000 is usable RAM on every PC (checked against the memory map). */
#ifndef ARBOR_SMP_BOOT_H
#define ARBOR_SMP_BOOT_H

#define SMP_TRAMP_BASE 0x8000

#endif
