/* The kernel's random numbers: an entropy pool and a ChaCha20 generator
 * (docs/abi.md, "Linux interfaces"). The pool is seeded at boot from
 * RDRAND when the CPU has it (QEMU's TCG default CPU has not: then only
 * the rest), the TSC and the real-time clock, and every interrupt folds
 * its arrival time (TSC) in. The generator's 256-bit key is rekeyed from
 * the pool when the pool has changed, and after every request from the
 * generator's own next block (so output already given cannot be
 * recomputed from a later state). getrandom(2) never blocks: the pool is
 * seeded before the first process runs. Under QEMU with -icount the TSC
 * is deterministic, and without RDRAND so is the whole sequence. */
#include "abi/errno.h"
#include "abi/random.h"
#include "arch/x86.h"
#include "kstring.h"
#include "printk.h"
#include "proc.h"
#include "random.h"
#include "sched.h"
#include "spinlock.h"
#include "syscall.h"
#include "timer.h"

#define POOL_WORDS 8

static struct spinlock random_lock = SPINLOCK_INIT("random");
static uint32_t key[8];			/* the generator's key (random_lock) */
static uint64_t counter;		/* its block counter (random_lock) */
static uint64_t pool[POOL_WORDS];	/* mixed by interrupts without a lock */
static uint32_t pool_pos;
static bool pool_changed;

static inline uint32_t rotl32(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

static inline uint64_t rotl64(uint64_t v, int n)
{
	return (v << n) | (v >> (64 - n));
}

#define QR(a, b, c, d)                                                   \
	(a += b, d ^= a, d = rotl32(d, 16), c += d, b ^= c, b = rotl32(b, 12), \
	 a += b, d ^= a, d = rotl32(d, 8), c += d, b ^= c, b = rotl32(b, 7))

/* One ChaCha20 block (RFC 8439's layout: constants, key, a 64-bit
 * counter and a zero nonce) into out. */
static void chacha_block(const uint32_t k[8], uint64_t ctr, uint32_t out[16])
{
	uint32_t s[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, k[0], k[1], k[2], k[3],
			   k[4], k[5], k[6], k[7], (uint32_t)ctr, (uint32_t)(ctr >> 32), 0, 0 };
	uint32_t x[16];
	memcpy(x, s, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		out[i] = x[i] + s[i];
}

void random_irq_mix(uint64_t vector)
{
	uint32_t i = pool_pos++ % POOL_WORDS;
	pool[i] = rotl64(pool[i], 19) ^ (rdtsc() * 0x9e3779b97f4a7c15ull) ^ vector;
	pool_changed = true;
}

static bool cpu_has_rdrand(void)
{
	uint32_t r[4];
	cpuid(1, 0, r);
	return (r[2] >> 30) & 1;
}

static bool rdrand64(uint64_t *v)
{
	unsigned char ok;
	__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
	return ok;
}

/* The pool into the key: the key and the pool through one block.
 * random_lock held. */
static void random_rekey_from_pool_locked(void)
{
	uint32_t k[8], out[16];
	for (int i = 0; i < 8; i++)
		k[i] = key[i] ^ (uint32_t)(pool[i % POOL_WORDS] >> (i < POOL_WORDS ? 0 : 32)) ^
		       (uint32_t)(pool[(i + 4) % POOL_WORDS] >> 32);
	chacha_block(k, counter++, out);
	memcpy(key, out, sizeof(key));
	pool_changed = false;
}

void random_init(void)
{
	bool rdrand = cpu_has_rdrand();
	for (int i = 0; i < POOL_WORDS; i++) {
		uint64_t v = 0;
		for (int tries = 0; rdrand && tries < 10 && !rdrand64(&v); tries++)
			;
		pool[i] ^= v ^ rotl64(rdtsc(), 7 * i) ^ clock_real_ns();
	}
	uint64_t flags = spin_lock_irqsave(&random_lock);
	random_rekey_from_pool_locked();
	spin_unlock_irqrestore(&random_lock, flags);
	printk("random: pool seeded (%s, TSC, real-time clock; interrupts from now on)\n",
	       rdrand ? "RDRAND" : "no RDRAND");
}

/* Up to 64 bytes of output, then a new key from the next block. */
static void random_chunk(void *buf, size_t n)
{
	uint32_t out[16];
	uint64_t flags = spin_lock_irqsave(&random_lock);
	if (pool_changed)
		random_rekey_from_pool_locked();
	chacha_block(key, counter++, out);
	memcpy(buf, out, n);
	chacha_block(key, counter++, out);
	memcpy(key, out, sizeof(key)); /* the state that made buf is gone */
	spin_unlock_irqrestore(&random_lock, flags);
	memset(out, 0, sizeof(out));
}

void random_bytes(void *buf, size_t n)
{
	for (size_t done = 0; done < n; done += 64)
		random_chunk((char *)buf + done, n - done < 64 ? n - done : 64);
}

/* Linux's limits: count cut to INT_MAX; a pending signal ends a long
 * request early with what was made (EINTR if nothing). */
long sys_getrandom(void *ubuf, size_t count, uint32_t flags)
{
	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) ||
	    (flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	if (count > 0x7fffffff)
		count = 0x7fffffff;
	char chunk[256];
	size_t done = 0;
	struct thread *self = current_thread();
	while (done < count) {
		if (done && (done % 4096) == 0 && thread_has_work(self))
			break;
		size_t n = count - done < sizeof(chunk) ? count - done : sizeof(chunk);
		random_bytes(chunk, n);
		if (copy_to_user((char *)ubuf + done, chunk, n)) {
			memset(chunk, 0, sizeof(chunk));
			return done ? (long)done : -EFAULT;
		}
		done += n;
		sched_cond_resched();
	}
	memset(chunk, 0, sizeof(chunk));
	return (long)done;
}
