/* A server thread that sleeps (sys_sleep_ns) while it serves a call: its
 * reply, its ipc_read/ipc_write and the identity the kernel gave it must
 * stay those of the call it serves, whatever other threads of the server
 * and other callers do meanwhile, and a caller interrupted or killed during
 * the sleep must never receive a reply (nor data) meant for another call of
 * its own or anybody else's. A block-server worker that slept while
 * serving a call was once seen answering the wrong caller; this shows
 * the kernel keeps each thread's call through its sleeps (issue 16: a
 * server learns who its client is from the kernel, and no client can hurt
 * another).
 *
 * The server: SRV threads of this process on one endpoint, fewer than the
 * callers (so callers queue and lend while servers sleep), replying with
 * sys_ipc_reply_recv like the block server's workers. Each call carries a
 * token; the server sleeps for some calls, then reads the token from the
 * caller's send buffer, writes it (changed) into the receive buffer and
 * echoes it with the pid and tid the kernel named. Callers: processes
 * with two threads each, checking every reply against their own call. */
#include "arbor/user.h"

#define SRV 2		/* server threads */
#define CLIENTS 3	/* client processes, two threads each */
#define ROUNDS 30	/* calls per client thread */
#define MODE_FAST 0
#define MODE_SLEEP 1	/* sleeps 1 ms before answering */
#define MODE_LONG 2	/* sleeps 40 ms, reports its reply's fate (slot w[3]) */
#define SLOTS 4

static int ep, ep2;
static volatile int recv_errors;

/* What the server saw of the MODE_LONG calls, by slot. */
static struct {
	volatile int taken;		/* the call was received */
	volatile int done;		/* and answered (or found gone) */
	volatile long write_r;		/* sys_ipc_write after the sleep */
	volatile long reply_r;		/* sys_ipc_reply after the sleep */
} slots[SLOTS];

static uint64_t token_of(long pid, long tid, int i)
{
	return (uint64_t)pid << 40 | (uint64_t)tid << 20 | (uint64_t)i;
}

/* Serves calls forever: sleeps as the call asks, then answers it. */
static long server(void *arg)
{
	(void)arg;
	struct ipc_msg m;
	struct ipc_info info;
	long r = sys_ipc_recv(ep, &m, &info);
	for (;;) {
		if (r < 0) {
			/* What the block server did: answer whoever may be
			 * held (a wrong answer) and go on. A live endpoint's
			 * receive never fails here. */
			__atomic_add_fetch(&recv_errors, 1, __ATOMIC_RELAXED);
			m = (struct ipc_msg){ .label = 1 };
			r = sys_ipc_reply_recv(ep, &m, &info);
			continue;
		}
		uint64_t mode = m.w[1], slot = m.w[3] % SLOTS;
		if (mode == MODE_LONG)
			__atomic_store_n(&slots[slot].taken, 1, __ATOMIC_RELEASE);
		if (mode != MODE_FAST)
			sys_sleep_ns(mode == MODE_LONG ? 40000000ull : 1000000ull);
		uint64_t sent = 0, back;
		long rr = sys_ipc_read(0, &sent, sizeof(sent));
		back = sent ^ 0x5555;
		long wr = sys_ipc_write(0, &back, sizeof(back));
		m = (struct ipc_msg){ .label = rr == sizeof(sent) && wr == sizeof(back) ? 0 : 1,
				      .w = { m.w[0], (uint64_t)info.pid, (uint64_t)info.tid, sent,
					     (uint64_t)info.for_pid } };
		if (mode == MODE_LONG) {
			/* the explicit reply, to see what became of it */
			slots[slot].write_r = wr;
			slots[slot].reply_r = sys_ipc_reply(&m);
			__atomic_store_n(&slots[slot].done, 1, __ATOMIC_RELEASE);
			r = sys_ipc_recv(ep, &m, &info);
		} else {
			r = sys_ipc_reply_recv(ep, &m, &info);
		}
	}
	return 0;
}

/* One call of token tok; 0 if its reply is its own in every respect. */
static int call_checked(uint64_t tok, uint64_t mode, uint64_t slot)
{
	long pid = sys_getpid(), tid = sys_gettid();
	uint64_t snd = tok, rcv = 0;
	struct ipc_msg m = { .label = 1, .w = { tok, mode, 0, slot } };
	long r = sys_ipc_call(ep, &m, &snd, sizeof(snd), &rcv, sizeof(rcv));
	if (r != 0)
		return 1;
	if (m.label != 0 || m.w[0] != tok || m.w[3] != tok)
		return 2; /* another call's answer, or another caller's data */
	if (m.w[1] != (uint64_t)pid || m.w[2] != (uint64_t)tid || m.w[4] != (uint64_t)pid)
		return 3; /* the server was told another caller */
	if (rcv != (tok ^ 0x5555))
		return 4; /* our buffer got another call's data */
	return 0;
}

static volatile int bad_calls;

static long client_thread(void *arg)
{
	long me = (long)arg, pid = sys_getpid(), tid = sys_gettid();
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t mode = (uint64_t)(i + me) % 3 == 0 ? MODE_FAST : MODE_SLEEP;
		if (call_checked(token_of(pid, tid, i), mode, 0))
			__atomic_add_fetch(&bad_calls, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

/* A client process: two threads calling at once; exits with the number
 * of calls whose reply was not their own (0: all were). */
static volatile int helper_done;

static long client_helper(void *arg)
{
	client_thread(arg);
	__atomic_store_n(&helper_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void client_proc(void)
{
	thread_start(client_helper, (void *)1);
	client_thread((void *)0);
	for (int i = 0; i < 5000 && !__atomic_load_n(&helper_done, __ATOMIC_ACQUIRE); i++)
		sys_sleep_ns(1000000);
	sys_exit(helper_done ? (bad_calls > 100 ? 100 : bad_calls) : 101);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* Waits until the server took the MODE_LONG call of slot s. */
static bool taken(int s)
{
	for (int i = 0; i < 5000 && !__atomic_load_n(&slots[s].taken, __ATOMIC_ACQUIRE); i++)
		sys_sleep_ns(1000000);
	return slots[s].taken;
}

static bool answered(int s)
{
	for (int i = 0; i < 5000 && !__atomic_load_n(&slots[s].done, __ATOMIC_ACQUIRE); i++)
		sys_sleep_ns(1000000);
	return slots[s].done;
}

/* A client of ep2: two calls, tokens 1 and 2; counts the right replies. */
static volatile int seq_ok, seq_done;

static long seq_client(void *arg)
{
	(void)arg;
	for (uint64_t tok = 1; tok <= 2; tok++) {
		struct ipc_msg m = { .label = 5, .w = { tok } };
		if (sys_ipc_call(ep2, &m, NULL, 0, NULL, 0) == 0 && m.w[0] == tok + 100)
			__atomic_add_fetch(&seq_ok, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&seq_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static long closer(void *arg)
{
	sys_sleep_ns(20000000);
	sys_handle_close((int)(long)arg);
	return 0;
}

/* This thread serves ep2 by hand: the same thread sleeps inside a call
 * and then waits in reply_recv, which must deliver the next call, not
 * the sleep's timeout; then reply_recv woken by an event (a channel's
 * last close) must deliver the event, not the reply just sent. */
static void sequence(void)
{
	struct ipc_msg m;
	struct ipc_info info;
	ep2 = (int)sys_ep_create();
	long ch = sys_chan_create(ep2, 0x77);
	thread_start(seq_client, NULL);
	tap_check("ep2: the first call", sys_ipc_recv(ep2, &m, &info) == 0 && m.label == 5 && m.w[0] == 1);
	sys_sleep_ns(1000000); /* ends by its timeout */
	m = (struct ipc_msg){ .label = 0, .w = { 101 } };
	long r = sys_ipc_reply_recv(ep2, &m, &info);
	tap_check_eq("after a sleep in a call, reply_recv receives the next call", r, 0);
	tap_check("which is the next call", r == 0 && m.label == 5 && m.w[0] == 2 && info.pid == sys_getpid());
	thread_start(closer, (void *)ch);
	m = (struct ipc_msg){ .label = 0, .w = { 102 } };
	r = sys_ipc_reply_recv(ep2, &m, &info);
	tap_check("reply_recv woken by an event gets the event, not its own reply",
		  r == 0 && m.label == IPC_LABEL_CLOSED && info.pid == 0 && info.badge == 0x77);
	for (int i = 0; i < 2000 && !__atomic_load_n(&seq_done, __ATOMIC_ACQUIRE); i++)
		sys_sleep_ns(1000000);
	tap_check_eq("both calls were answered with their own replies", seq_ok, 2);
}

int main(void)
{
	sequence();
	ep = (int)sys_ep_create();
	for (int i = 0; i < SRV; i++)
		thread_start(server, NULL);

	/* Alone first: one sleeping call answered to its caller. */
	tap_check_eq("a call whose server sleeps is answered to its caller",
		     call_checked(token_of(sys_getpid(), sys_gettid(), 0), MODE_SLEEP, 0), 0);

	long pids[CLIENTS];
	for (int c = 0; c < CLIENTS; c++) {
		pids[c] = sys_fork();
		if (pids[c] == 0)
			client_proc();
	}

	/* Meanwhile a caller interrupted by a signal during the server's
	 * sleep: EINTR, and its next calls get their own replies, never the
	 * late one of the call it left. */
	long ipid = sys_fork();
	if (ipid == 0) {
		set_handler(SIGUSR1, on_usr1, 0, 0);
		long me = sys_getpid(), tid = sys_gettid();
		uint64_t snd = token_of(me, tid, 900), rcv = 0;
		struct ipc_msg m = { .label = 1, .w = { snd, MODE_LONG, 0, 1 } };
		long r = sys_ipc_call(ep, &m, &snd, sizeof(snd), &rcv, sizeof(rcv));
		if (r != -EINTR)
			sys_exit(10);
		int e = 0;
		for (int i = 0; i < 8 && !e; i++) /* spans the server's sleep */
			e = call_checked(token_of(me, tid, 901 + i), i & 1 ? MODE_SLEEP : MODE_FAST, 0);
		sys_exit(e ? 20 + e : rcv != 0 ? 30 : 0);
	}
	tap_check("the server took the call that will be interrupted", taken(1));
	sys_kill((int)ipid, SIGUSR1);
	int st = -1;
	tap_check("the interrupted caller got EINTR, then only its own replies",
		  sys_waitpid((int)ipid, &st, 0) == ipid && st == 0);
	tap_check("the server, awake, finds nobody to answer", answered(1));
	tap_check_eq("its ipc_write for the interrupted call: ESRCH", slots[1].write_r, -ESRCH);
	tap_check_eq("its reply for the interrupted call: ESRCH", slots[1].reply_r, -ESRCH);

	/* A caller killed during the server's sleep. */
	long kpid = sys_fork();
	if (kpid == 0) {
		uint64_t snd = 1, rcv = 0;
		struct ipc_msg m = { .label = 1, .w = { 7, MODE_LONG, 0, 2 } };
		sys_ipc_call(ep, &m, &snd, sizeof(snd), &rcv, sizeof(rcv));
		sys_exit(1);
	}
	tap_check("the server took the call whose caller is killed", taken(2));
	sys_kill((int)kpid, SIGKILL);
	st = -1;
	tap_check("the killed caller is gone", sys_waitpid((int)kpid, &st, 0) == kpid && (st & 0x7f) == SIGKILL);
	tap_check("the server wakes and answers nobody",
		  answered(2) && slots[2].write_r == -ESRCH && slots[2].reply_r == -ESRCH);

	int bad = 0;
	for (int c = 0; c < CLIENTS; c++) {
		st = -1;
		if (sys_waitpid((int)pids[c], &st, 0) != pids[c] || st != 0) {
			printf("ipc_sleep: client %d exit status %#x\n", c, st);
			bad++;
		}
	}
	tap_check_eq("every concurrent caller got only its own replies", bad, 0);
	tap_check_eq("no server receive failed", recv_errors, 0);
	tap_check_eq("and so did this one, after all that",
		     call_checked(token_of(sys_getpid(), sys_gettid(), 1), MODE_SLEEP, 0), 0);
	return tap_done();
}
