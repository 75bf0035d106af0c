/* CPU exceptions and interrupt dispatch. */
#ifndef ARBOR_TRAP_H
#define ARBOR_TRAP_H

#include "types.h"

/* Pushed by isr.S; the layout is shared with the assembly. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define TRAP_DE   0
#define TRAP_DB   1
#define TRAP_NMI  2
#define TRAP_BP   3
#define TRAP_UD   6
#define TRAP_NM   7
#define TRAP_DF   8
#define TRAP_GP   13
#define TRAP_PF   14
#define TRAP_MC   18
#define TRAP_XM   19
#define TRAP_NR_EXCEPTIONS 32

#define IRQ_VECTOR_BASE   32
#define VECTOR_LAPIC_TIMER 0xf0
/* Inter-processor interrupts (smp.c): from here up to VECTOR_SPURIOUS.
 * Their arrival times are not mixed into the entropy pool. */
#define VECTOR_IPI_FIRST   0xf1
#define VECTOR_IPI_CALL    0xf1
#define VECTOR_IPI_RESCHED 0xf2
#define VECTOR_SPURIOUS    0xff

typedef void (*trap_handler_fn)(struct trap_frame *tf);

void idt_init(void);
/* Loads the IDT idt_init built on this CPU (each other CPU). */
void idt_load(void);
void trap_register(uint8_t vector, trap_handler_fn fn);
void trap_dispatch(struct trap_frame *tf);
const char *trap_name(uint64_t vector);
bool trap_from_user(const struct trap_frame *tf);

#endif
