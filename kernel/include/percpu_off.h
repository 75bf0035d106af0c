/* Offsets in struct cpu (percpu.h) that assembly reads through %gs: a
 * header of plain numbers, so the .S files and C share them (gdt.c
 * asserts each against the structure). */
#ifndef ARBOR_PERCPU_OFF_H
#define ARBOR_PERCPU_OFF_H

#define PERCPU_OFF_USER_RSP	8	/* scratch for the syscall entry */
#define PERCPU_OFF_CURRENT	16	/* the running thread */
#define PERCPU_OFF_NEED_RESCHED	24
#define PERCPU_OFF_PREEMPT	32	/* preempt_count (spinlock.h) */
/* the TSS's rsp0 (packed: 4 bytes into the TSS): the running thread's
 * kernel stack top, where the syscall entry starts its frame as an
 * interrupt from user mode does */
#define PERCPU_OFF_TSS_RSP0	0xd4

#endif
