/* flockfile, ftrylockfile, funlockfile: a recursive lock per FILE, owned
 * by a thread. newlib (built without retargetable locks) keeps no lock in
 * its FILE, so the locks live in a small table keyed by the FILE: a
 * thread locking a stream finds or takes its slot under the table's
 * futex lock, and waits on the slot's owner word (a futex) while another
 * thread holds it. A slot is freed when its count drops to zero. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include "arbor_sys.h"

#define FLOCK_SLOTS 64	/* streams locked at once, process-wide */

struct flock_slot {
	FILE *f;
	uint32_t owner;	/* the holder's tid; 0 free (a futex word) */
	uint32_t count;
};

static struct flock_slot flock_slots[FLOCK_SLOTS];
static uint32_t flock_table;	/* 0 free, 1 held, 2 held with waiters */
static uint32_t flock_freed;	/* bumped when a slot frees (a futex word) */

static void table_lock(void)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&flock_table, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&flock_table, 2, __ATOMIC_ACQUIRE) != 0)
		sys_futex_wait(&flock_table, 2, 0, 0);
}

static void table_unlock(void)
{
	if (__atomic_exchange_n(&flock_table, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake(&flock_table, 1);
}

/* Takes f's lock for the calling thread; with try, gives up (1) rather
 * than wait. 0 when held. */
static int flock_take(FILE *f, int try)
{
	uint32_t me = (uint32_t)sys_gettid();
	for (;;) {
		table_lock();
		struct flock_slot *s = NULL, *free_slot = NULL;
		for (int i = 0; i < FLOCK_SLOTS; i++) {
			if (flock_slots[i].f == f && flock_slots[i].count)
				s = &flock_slots[i];
			else if (!flock_slots[i].count && !free_slot)
				free_slot = &flock_slots[i];
		}
		if (s && s->owner == me) {
			s->count++;
			table_unlock();
			return 0;
		}
		if (!s && free_slot) {
			free_slot->f = f;
			free_slot->count = 1;
			__atomic_store_n(&free_slot->owner, me, __ATOMIC_RELEASE);
			table_unlock();
			return 0;
		}
		if (try) {
			table_unlock();
			return 1;
		}
		/* Held by another thread (wait for its owner word to change),
		 * or every slot in use (wait for one to free). */
		uint32_t *word = s ? &s->owner : &flock_freed;
		uint32_t seen = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		table_unlock();
		sys_futex_wait(word, seen, 0, 0);
	}
}

void flockfile(FILE *f)
{
	flock_take(f, 0);
}

int ftrylockfile(FILE *f)
{
	return flock_take(f, 1);
}

void funlockfile(FILE *f)
{
	uint32_t me = (uint32_t)sys_gettid();
	table_lock();
	for (int i = 0; i < FLOCK_SLOTS; i++) {
		struct flock_slot *s = &flock_slots[i];
		if (s->f != f || !s->count || s->owner != me)
			continue;
		if (--s->count == 0) {
			s->f = NULL;
			__atomic_store_n(&s->owner, 0, __ATOMIC_RELEASE);
			__atomic_add_fetch(&flock_freed, 1, __ATOMIC_RELEASE);
			table_unlock();
			sys_futex_wake(&s->owner, 1 << 30);
			sys_futex_wake(&flock_freed, 1 << 30);
			return;
		}
		break;
	}
	table_unlock();
}
