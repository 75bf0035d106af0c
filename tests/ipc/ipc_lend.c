/* A waiter lends its context to the busy server it waits behind
 * (docs/scheduler.md, "Waiting behind a busy server"); the kernel test
 * ipc_waiter_lends_to_busy_server runs the three parts:
 *
 *   ipc_lend server NAME             a one-thread server published as
 *                                    NAME: label 6 spins w[0] rounds of
 *                                    CPU work, label 1 answers at once,
 *                                    label 4 ends it
 *   ipc_lend low NAME ROUNDS MS      calls label 6 (ROUNDS) over and over
 *                                    for MS ms: the server is nearly
 *                                    always busy on this caller's context
 *   ipc_lend probe NAME ROUNDS N     times the same work done here, then
 *                                    N label-1 calls made at scattered
 *                                    times, each queued behind a label-6
 *                                    call; ends the server
 *   ipc_lend behind NAME ROUNDS N BOUND
 *                                    the same, each label-1 call queued
 *                                    behind a long call of its own
 *                                    cgroup and the low callers queued
 *                                    meanwhile, each wait under BOUND
 *                                    times the work (see behind())
 *
 * The low caller runs at cpu.weight 1 beside CPU hogs in its cgroup, the
 * probe at cpu.weight 10000. A label-6 call served on the low caller's
 * context runs at that context's share of its cgroup (a fraction as
 * small as the hogs are many), so without lending the probe waits many
 * times the call's length; with it, the probe's context pushes the call,
 * and the probe waits at most about one call's length. The probe exits 0
 * if at most 2 of its waits (a loaded host's hiccups) reach twice the
 * work's length measured here. */
#include "arbor/user.h"

/* The server's work and the probe's measure of it: the same code. */
static void __attribute__((noinline)) work(uint64_t rounds)
{
	for (volatile uint64_t i = 0; i < rounds; i++)
		;
}

static long lookup(const char *name)
{
	long h = -ENOENT;
	for (int i = 0; i < 500 && h == -ENOENT; i++)
		if ((h = sys_ns_lookup(name)) == -ENOENT)
			sys_sleep_ns(2000000);
	return h;
}

static int serve(const char *name)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	long ep = sys_ep_create();
	if (ep < 0 || sys_ns_register(name, (int)ep) != 0)
		return 1;
	long r = sys_ipc_recv((int)ep, &m, &info);
	while (r == 0) {
		if (m.label == 4)
			return 0;
		if (m.label == 6)
			work(m.w[0]);
		else if (m.label != 1)
			m.label = (uint64_t)-EINVAL;
		r = sys_ipc_reply_recv((int)ep, &m, &info);
	}
	return 2;
}

static int low(long h, uint64_t rounds, uint64_t ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;
	while (now_ns() < end) {
		struct ipc_msg m = { .label = 6, .w = { rounds } };
		long r = sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
		if (r == -EHOSTDOWN)
			return 0; /* the probe ended the server */
		if (r != 0)
			return 4;
	}
	return 0;
}

/* How long work(rounds) takes alone: the best of 3. */
static uint64_t solo_ns(uint64_t rounds)
{
	uint64_t solo = ~0ull;
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = now_ns();
		work(rounds);
		uint64_t d = now_ns() - t0;
		solo = d < solo ? d : solo;
	}
	return solo;
}

static int probe(long h, uint64_t rounds, long n)
{
	uint64_t solo = solo_ns(rounds);
	sys_sleep_ns(30000000); /* the low caller and the hogs get going */
	uint64_t worst = 0, total = 0;
	long over = 0;
	for (long i = 0; i < n; i++) {
		sys_sleep_ns(1000000 + (uint64_t)(i % 7) * 1300000); /* land anywhere in a call */
		struct ipc_msg m = { .label = 1 };
		uint64_t t0 = now_ns();
		if (sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) != 0)
			return 5;
		uint64_t d = now_ns() - t0;
		if (d >= 2 * solo) {
			printf("# ipc_lend: wait %ld took %lu us\n", i, d / 1000);
			over++;
		}
		total += d;
		worst = d > worst ? d : worst;
	}
	struct ipc_msg stop = { .label = 4 };
	sys_ipc_call((int)h, &stop, NULL, 0, NULL, 0);
	printf("# ipc_lend: the work alone %lu us; the probe's %ld waits behind it: mean %lu us, longest %lu us, %ld over twice the work\n",
	       solo / 1000, n, total / (uint64_t)n / 1000, worst / 1000, over);
	/* Two may be the host's (another QEMU took the CPU): without lending
	 * a third of them or more are over, several times over. */
	return over <= 2 ? 0 : 1;
}

/* "behind": a helper thread's long call (3 rounds' worth) holds the
 * server, equally entitled (our cgroup), while low callers queue behind
 * it; then our call queues behind them and finds no call to push. When
 * the server takes the next (less entitled) caller, we push that call
 * (the endpoint remembers us: ipc.c, ep->unlent) and are taken after it:
 * we wait for the rest of the helper's call and one call, not for every
 * queued low caller at its own share (3 waits of 3 more rounds, at a
 * ninth of their cgroup's time: 30 rounds and more). That is about 3
 * rounds on one CPU; with several, the low callers, on a CPU of their
 * own, keep the server busy, and the helper's call often comes during a
 * low caller's (which it pushes): up to one round more, about 4. BOUND
 * is 6 rounds on one CPU, 8 with more (a loaded host's hiccups). */
static long helper_h;
static uint64_t helper_rounds;
static volatile int helper_done;

static long helper(void *arg)
{
	(void)arg;
	struct ipc_msg m = { .label = 6, .w = { helper_rounds } };
	sys_ipc_call((int)helper_h, &m, NULL, 0, NULL, 0);
	__atomic_store_n(&helper_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int behind(long h, uint64_t rounds, long n, uint64_t bound)
{
	uint64_t solo = solo_ns(rounds);
	sys_sleep_ns(30000000);
	helper_h = h;
	helper_rounds = 3 * rounds;
	uint64_t worst = 0;
	long over = 0;
	for (long i = 0; i < n; i++) {
		helper_done = 0;
		if (thread_start(helper, NULL) < 0)
			return 6;
		sys_sleep_ns(solo); /* the low callers queue behind the helper */
		struct ipc_msg m = { .label = 1 };
		uint64_t t0 = now_ns();
		if (sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) != 0)
			return 5;
		uint64_t d = now_ns() - t0;
		worst = d > worst ? d : worst;
		if (d >= bound * solo) {
			printf("# ipc_lend: wait %ld behind the queue took %lu us\n", i, d / 1000);
			over++;
		}
		while (!__atomic_load_n(&helper_done, __ATOMIC_ACQUIRE))
			sys_sleep_ns(1000000);
	}
	struct ipc_msg stop = { .label = 4 };
	sys_ipc_call((int)h, &stop, NULL, 0, NULL, 0);
	printf("# ipc_lend: the work alone %lu us; %ld waits behind a long call and queued low callers: longest %lu us, %ld over %lu times the work\n",
	       solo / 1000, n, worst / 1000, over, bound);
	return over <= 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "server"))
		return serve(argv[2]);
	if (argc < 5)
		return 2;
	long h = lookup(argv[2]);
	if (h < 0)
		return 3;
	uint64_t rounds = (uint64_t)strtol_simple(argv[3]);
	if (!strcmp(argv[1], "low"))
		return low(h, rounds, (uint64_t)strtol_simple(argv[4]));
	if (!strcmp(argv[1], "probe"))
		return probe(h, rounds, strtol_simple(argv[4]));
	if (!strcmp(argv[1], "behind") && argc >= 6)
		return behind(h, rounds, strtol_simple(argv[4]), (uint64_t)strtol_simple(argv[5]));
	return 2;
}
