/* kcov: which kernel code a thread runs, for the coverage-guided fuzzer
 * (tests/fuzz), as Linux's kcov. A kernel built with KCOV=1 (`make kcov`,
 * build/kcov) is compiled with -fsanitize-coverage=trace-pc: gcc puts a
 * call to __sanitizer_cov_trace_pc at the start of every basic block.
 * That call appends its return address to the buffer of the current
 * thread if the thread enabled recording (sys_kcov KCOV_ENABLE), and does
 * nothing otherwise. This file itself is built without the option (the
 * hook must not call itself). In normal builds only sys_kcov is here, and
 * it answers -ENOSYS: nothing on any other path changes. */
#include "kcov.h"
#include "abi/errno.h"
#include "abi/kcov.h"
#include "heap.h"
#include "ksyms.h"
#include "kstring.h"
#include "percpu.h"
#include "proc.h"
#include "syscall.h"

#ifdef CONFIG_KCOV
/* KCOV_PCS entries with the two counters make exactly 128 KiB: one
 * order-5 block. A whole KCOV_ENTRIES would take 8 bytes more, an order-6
 * block, which a fragmented heap late in a fuzz run may not have (a new
 * worker's KCOV_ENABLE then failed with ENOMEM). */
#define KCOV_PCS (KCOV_ENTRIES - 2)
struct kcov {
	uint32_t n;		/* entries recorded */
	uint32_t paused;	/* nonzero: the kernel is copying them out */
	uint32_t pc[KCOV_PCS];
};
_Static_assert(sizeof(struct kcov) == KCOV_ENTRIES * sizeof(uint32_t), "kcov: one power-of-two block");

static bool kcov_ready;	/* %gs points at per-CPU data */

void kcov_init(void)
{
	kcov_ready = true;
}

void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void)
{
	if (!kcov_ready)
		return;
	struct thread *t = current_thread();
	struct kcov *k = t ? t->kcov : NULL;
	if (!k || k->paused || k->n >= KCOV_PCS)
		return;
	k->pc[k->n++] = (uint32_t)((uint64_t)__builtin_return_address(0) - KCOV_BASE);
}

void kcov_thread_free(struct thread *t)
{
	kfree(t->kcov);
	t->kcov = NULL;
}

static long kcov_collect(struct kcov *k, uint32_t *buf, size_t len)
{
	uint32_t n = k->n;
	if (len < n)
		n = (uint32_t)len;
	k->paused = 1;	/* the copy's own blocks are not the caller's */
	long r = copy_to_user(buf, k->pc, n * sizeof(uint32_t)) ? -EFAULT : (long)n;
	k->n = 0;
	k->paused = 0;
	return r;
}

long sys_kcov(int op, uint64_t arg, void *buf, size_t len)
{
	struct thread *t = current_thread();
	switch (op) {
	case KCOV_ENABLE:
		if (t->kcov)
			return -EBUSY;
		t->kcov = kzalloc(sizeof(struct kcov));
		return t->kcov ? 0 : -ENOMEM;
	case KCOV_COLLECT:
		if (!t->kcov)
			return -EINVAL;
		if (len > KCOV_ENTRIES)
			len = KCOV_ENTRIES;	/* no more than it can hold */
		if (!user_range_ok((uint64_t)buf, len * sizeof(uint32_t)))
			return -EFAULT;
		return kcov_collect(t->kcov, buf, len);
	case KCOV_DISABLE:
		if (!t->kcov)
			return -EINVAL;
		kcov_thread_free(t);
		return 0;
	case KCOV_FUNC: {
		uint64_t off;
		const char *name = ksyms_lookup(KCOV_BASE + (uint32_t)arg, &off);
		if (!name)
			return -ENOENT;
		if (buf && len) {
			char tmp[64];
			strlcpy(tmp, name, MIN(len, sizeof(tmp)));
			if (copy_to_user(buf, tmp, strlen(tmp) + 1))
				return -EFAULT;
		}
		return (long)((uint32_t)arg - off);
	}
	default:
		return -EINVAL;
	}
}
#else
long sys_kcov(int op, uint64_t arg, void *buf, size_t len)
{
	(void)op, (void)arg, (void)buf, (void)len;
	return -ENOSYS;	/* Linux's answer for a facility the kernel was built without */
}
#endif
