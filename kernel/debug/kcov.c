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
/* The buffer is pages of their own, found through a table, not one
 * block: late in a fuzz run the heap has free pages but maybe no free
 * 128 KiB block (a new worker's KCOV_ENABLE then failed with ENOMEM, the
 * run with it). */
#define KCOV_PER_PAGE ((uint32_t)(PAGE_SIZE / sizeof(uint32_t)))
#define KCOV_PAGES (KCOV_ENTRIES / KCOV_PER_PAGE)
struct kcov {
	uint32_t n;		/* entries recorded */
	uint32_t paused;	/* nonzero: the kernel is copying them out */
	uint32_t *page[KCOV_PAGES];
};

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
	if (!k || k->paused || k->n >= KCOV_ENTRIES)
		return;
	uint32_t n = k->n++;
	k->page[n / KCOV_PER_PAGE][n % KCOV_PER_PAGE] = (uint32_t)((uint64_t)__builtin_return_address(0) - KCOV_BASE);
}

static void kcov_free(struct kcov *k)
{
	for (uint32_t i = 0; k && i < KCOV_PAGES; i++)
		kfree(k->page[i]);
	kfree(k);
}

/* A buffer of KCOV_ENTRIES, or NULL. */
static struct kcov *kcov_alloc(void)
{
	struct kcov *k = kzalloc(sizeof(*k));
	for (uint32_t i = 0; k && i < KCOV_PAGES; i++)
		if (!(k->page[i] = kmalloc(PAGE_SIZE))) {
			kcov_free(k);
			return NULL;
		}
	return k;
}

void kcov_thread_free(struct thread *t)
{
	kcov_free(t->kcov);
	t->kcov = NULL;
}

static long kcov_collect(struct kcov *k, uint32_t *buf, size_t len)
{
	uint32_t n = k->n;
	if (len < n)
		n = (uint32_t)len;
	k->paused = 1;	/* the copy's own blocks are not the caller's */
	long r = (long)n;
	for (uint32_t at = 0; at < n && r >= 0; at += KCOV_PER_PAGE) {
		uint32_t c = MIN(n - at, KCOV_PER_PAGE);
		if (copy_to_user(buf + at, k->page[at / KCOV_PER_PAGE], c * sizeof(uint32_t)))
			r = -EFAULT;
	}
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
		t->kcov = kcov_alloc();
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
