/* Signals with threads, bounds and rights (TAP; KTEST posix_sigrt): two
 * threads taking signals at once keep their own registers and FPU state
 * (the kernel builds each frame on the thread's own stack); RLIMIT_SIGPENDING
 * bounds queued real-time signals and POSIX timers (EAGAIN); sigqueue and
 * tgkill need the rights kill needs (EPERM); pthread_kill pends for and is
 * taken by its thread alone; sigpending shows a thread's own and its
 * process's; SIGEV_THREAD_ID and SIGEV_THREAD timers. */
#define _GNU_SOURCE 1 /* SIGEV_THREAD_ID */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "abi/signal.h"
#include "arbor/syscalls.h"
#include "check.h"

/* --- Frames of two threads at once ------------------------------------ */

#define RACERS 2
#define ALT_REGION (8 << 20)

struct racer {
	pthread_t th;
	int index;
	volatile int tid;
	long rounds, bad_regs, bad_tid;
};
static struct racer racers[RACERS];
static volatile int race_stop;
static volatile long race_delivered;

static void race_handler(int sig)
{
	(void)sig;
	/* Clobbers what the interrupted loop keeps in registers: only the
	 * kernel's restore from the frame brings them back. */
	__asm__ volatile("pxor %%xmm6, %%xmm6\n\txor %%r15, %%r15" ::: "xmm6", "r15");
	__atomic_add_fetch(&race_delivered, 1, __ATOMIC_RELAXED);
}

/* Holds v in r15 and xmm6 through a spin (signals land in it); true if
 * both still hold it. */
static int race_hold(uint64_t v)
{
	uint64_t g, x;
	__asm__ volatile("movq %2, %%r15\n\t"
			 "movq %2, %%xmm6\n\t"
			 "mov $20000, %%ecx\n"
			 "1:\tpause\n\t"
			 "dec %%ecx\n\t"
			 "jnz 1b\n\t"
			 "movq %%r15, %0\n\t"
			 "movq %%xmm6, %1"
			 : "=&r"(g), "=&r"(x)
			 : "r"(v)
			 : "rcx", "r15", "xmm6", "cc");
	return g == v && x == v;
}

static void *racer_main(void *arg)
{
	struct racer *r = arg;
	r->tid = (int)sys_gettid();
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* Each round's alternate stack is a page never touched before, so
	 * every frame's copy faults in a fresh page (zeroed, charged): a
	 * long stretch in the kernel, with interrupts on, for the other
	 * thread's delivery to cut into. */
	char *region = mmap(NULL, ALT_REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	while (!race_stop) {
		if (region != MAP_FAILED) {
			uint64_t page = (uint64_t)r->rounds % (ALT_REGION / 4096);
			stack_t ss = { .ss_sp = region + page * 4096, .ss_size = 4096 };
			pthread_sigmask(SIG_BLOCK, &usr1, NULL);
			sigaltstack(&ss, NULL);
			pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
		}
		pthread_kill(racers[(r->index + 1) % RACERS].th, SIGUSR1);
		uint64_t v = 0x5a5a000000000000ull | ((uint64_t)r->index << 32) | (uint64_t)r->rounds;
		if (!race_hold(v))
			r->bad_regs++;
		if ((int)sys_gettid() != r->tid)
			r->bad_tid++; /* running on another thread's registers */
		r->rounds++;
	}
	return NULL;
}

static void test_frames_per_thread(void)
{
	struct sigaction sa = { .sa_handler = race_handler, .sa_flags = SA_ONSTACK | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	race_stop = 0;
	for (int i = 0; i < RACERS; i++) {
		racers[i].index = i;
		pthread_create(&racers[i].th, NULL, racer_main, &racers[i]);
	}
	double end = now_s() + 1.5;
	long bad = 0, rounds = 0;
	while (now_s() < end) {
		for (int i = 0; i < RACERS; i++)
			pthread_kill(racers[i].th, SIGUSR1);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	race_stop = 1;
	for (int i = 0; i < RACERS; i++) {
		pthread_join(racers[i].th, NULL);
		bad += racers[i].bad_regs + racers[i].bad_tid;
		rounds += racers[i].rounds;
	}
	printf("# %ld rounds, %ld signals delivered, %ld with registers or thread wrong\n", rounds,
	       race_delivered, bad);
	check(bad == 0 && race_delivered > 100,
	      "two threads taking signals at once keep their own registers and FPU state");
	signal(SIGUSR1, SIG_DFL);
}

/* --- Bounds and rights ------------------------------------------------ */

static void block_all_rt(sigset_t *s)
{
	sigemptyset(s);
	for (int i = SIGRTMIN; i <= SIGRTMAX; i++)
		sigaddset(s, i);
	sigaddset(s, SIGUSR1);
	sigaddset(s, SIGUSR2);
	sigprocmask(SIG_BLOCK, s, NULL);
}

static void test_bounds(void)
{
	sigset_t rt;
	block_all_rt(&rt);
	struct rlimit old, rl = { 8, 8 };
	getrlimit(RLIMIT_SIGPENDING, &old);
	check(old.rlim_cur == 4096 && old.rlim_max == 4096, "RLIMIT_SIGPENDING starts at 4096");
	check(setrlimit(RLIMIT_SIGPENDING, &rl) == 0, "lower RLIMIT_SIGPENDING to 8");
	int n = 0;
	while (n < 100 && sigqueue(getpid(), SIGRTMIN + n % 3, (union sigval){ n }) == 0)
		n++;
	check_errno(sigqueue(getpid(), SIGRTMIN, (union sigval){ 0 }), EAGAIN,
		    "sigqueue past RLIMIT_SIGPENDING: EAGAIN");
	check(n == 8, "exactly 8 were queued");
	/* A standard signal is not bounded (it pends once anyway). */
	check(sigqueue(getpid(), SIGUSR1, (union sigval){ 0 }) == 0, "a standard signal past the bound");
	/* kill queues past the bound without its siginfo (Linux): SI_USER. */
	check(kill(getpid(), SIGRTMAX) == 0, "kill of a real-time signal past the bound");
	timer_t tm;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	check_errno(timer_create(CLOCK_MONOTONIC, &ev, &tm), EAGAIN, "timer_create past RLIMIT_SIGPENDING: EAGAIN");
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	int taken = 0, order_ok = 1, last[3] = { -1, -1, -1 };
	while (sigtimedwait(&rt, &si, &zero) > 0) {
		if (si.si_signo >= SIGRTMIN && si.si_signo < SIGRTMIN + 3) {
			int k = si.si_signo - SIGRTMIN;
			order_ok &= si.si_value.sival_int > last[k] && si.si_code == SI_QUEUE;
			last[k] = si.si_value.sival_int;
		}
		taken++;
	}
	check(taken == 10 && order_ok, "all taken back, each signal's values in order (8 + USR1 + RTMAX)");
	check(sigqueue(getpid(), SIGRTMIN, (union sigval){ 0 }) == 0, "room again once taken");
	sigtimedwait(&rt, &si, &zero);
	check(timer_create(CLOCK_MONOTONIC, &ev, &tm) == 0 && timer_delete(tm) == 0, "and for a timer");
	rl.rlim_max = 16;
	pid_t pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && setrlimit(RLIMIT_SIGPENDING, &rl) == -1 && errno == EPERM;
		_exit(ok ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a user raising RLIMIT_SIGPENDING's hard limit: EPERM");
	check(setrlimit(RLIMIT_SIGPENDING, &old) == 0, "root may raise it back");
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
}

static void test_rights(void)
{
	pid_t root_child = fork();
	if (root_child == 0) {
		for (;;)
			pause();
	}
	pid_t pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && sigqueue(root_child, SIGUSR1, (union sigval){ 0 }) == -1 &&
			 errno == EPERM;
		_exit(ok ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sigqueue to another user's process: EPERM");
	pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && sys_tgkill(root_child, root_child, SIGUSR1) == -EPERM;
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tgkill to another user's thread: EPERM");
	check(sys_tgkill(root_child, (int)sys_gettid(), SIGUSR1) == -ESRCH,
	      "tgkill of a thread of another process: ESRCH");
	check(sys_tgkill(getpid(), 0, SIGUSR1) == -EINVAL && sys_tgkill(getpid(), (int)sys_gettid(), 65) == -EINVAL,
	      "tgkill: a tid of 0 or a bad signal: EINVAL");
	clockid_t other;
	timer_t tm;
	check(clock_getcpuclockid(root_child, &other) == 0, "clock_getcpuclockid of a child");
	struct timespec ts;
	check(clock_gettime(other, &ts) == 0, "clock_gettime of its CPU clock");
	errno = 0;
	check_errno(timer_create(other, NULL, &tm), EINVAL, "timer_create on another process's CPU clock: EINVAL");
	kill(root_child, SIGKILL);
	waitpid(root_child, NULL, 0);
	check_errno(clock_gettime(other, &ts), EINVAL, "a reaped process's CPU clock: EINVAL");
	check(clock_getcpuclockid(root_child, &other) == ESRCH, "clock_getcpuclockid of a reaped process: ESRCH");
}

/* --- Per-thread signals ----------------------------------------------- */

static volatile int handled_tid;
static pthread_t waiter_th;
static volatile int waiter_ready, waiter_tid;
static sigset_t waiter_pending;

static void on_usr2(int sig)
{
	(void)sig;
	handled_tid = (int)sys_gettid();
}

static volatile int quick_done;
static void *quick_main(void *a)
{
	quick_done = 1;
	return a;
}

static void *waiter_main(void *arg)
{
	(void)arg;
	waiter_tid = (int)sys_gettid();
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	waiter_ready = 1;
	while (waiter_ready != 2)
		sched_yield();
	sigpending(&waiter_pending);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL); /* its own signal runs here */
	return NULL;
}

static void test_thread_signals(void)
{
	signal(SIGUSR2, on_usr2);
	sigset_t s, pend;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	handled_tid = 0;
	check(pthread_kill(pthread_self(), SIGUSR2) == 0 && handled_tid == (int)sys_gettid(),
	      "pthread_kill(self) runs the handler on this thread");
	pthread_create(&waiter_th, NULL, waiter_main, NULL);
	while (!waiter_ready)
		sched_yield();
	handled_tid = 0;
	check(pthread_kill(waiter_th, SIGUSR2) == 0, "pthread_kill of a thread that blocks it");
	sigpending(&pend);
	check(!sigismember(&pend, SIGUSR2), "not pending for another thread");
	check(handled_tid == 0, "and not run by another thread (this one does not block it)");
	waiter_ready = 2;
	pthread_join(waiter_th, NULL);
	check(sigismember(&waiter_pending, SIGUSR2), "pending for its thread (sigpending there)");
	check(handled_tid == waiter_tid, "run by its thread once it unblocks it");
	/* An ended thread not yet joined: its ID is valid, the signal goes
	 * nowhere (POSIX; glibc since 2.34), before and after the kernel's
	 * thread is gone. */
	pthread_t quick;
	pthread_create(&quick, NULL, quick_main, NULL);
	while (!quick_done)
		sched_yield();
	int kill_errs = 0;
	for (int i = 0; i < 200; i++) {
		kill_errs += pthread_kill(quick, 0) != 0;
		if (i % 20 == 0)
			usleep(1000);
	}
	check(kill_errs == 0, "pthread_kill of an ended thread not yet joined: 0");
	pthread_join(quick, NULL);
	check(pthread_kill(quick, 0) == ESRCH, "and ESRCH once joined");
	check(pthread_kill(waiter_th, 0) == ESRCH, "pthread_kill of a joined thread: ESRCH");
	check(pthread_kill(pthread_self(), 65) == EINVAL, "pthread_kill with a bad signal: EINVAL");
	check(pthread_sigmask(7, &s, NULL) == EINVAL, "pthread_sigmask with a bad how: EINVAL (returned)");
	/* Process-wide pending shows in every thread's sigpending. */
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	kill(getpid(), SIGUSR2);
	sigpending(&pend);
	check(sigismember(&pend, SIGUSR2), "a process's pending signal shows in sigpending");
	handled_tid = 0;
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	check(handled_tid == (int)sys_gettid(), "and is taken when unblocked");
	signal(SIGUSR2, SIG_DFL);
}

/* --- Timers that name a thread ---------------------------------------- */

uint32_t __arbor_pthread_tid(pthread_t t); /* the C library's: a pthread's kernel tid */

static volatile int tick_tid, tick_code, tick_value;
static void on_tick(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	tick_tid = (int)sys_gettid();
	tick_code = si->si_code;
	tick_value = si->si_value.sival_int;
}

static volatile int thread_fn_calls, thread_fn_value, thread_fn_tid;
static volatile int slow_fn_calls;

static void slow_fn(union sigval v)
{
	(void)v;
	double until = now_s() + 0.02;
	while (now_s() < until)
		;
	__atomic_add_fetch(&slow_fn_calls, 1, __ATOMIC_RELAXED);
}
static void timer_fn(union sigval v)
{
	thread_fn_value = v.sival_int;
	thread_fn_tid = (int)sys_gettid();
	__atomic_add_fetch(&thread_fn_calls, 1, __ATOMIC_RELAXED);
}

static void *sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 300000000 };
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
	return NULL;
}

static void test_thread_timers(void)
{
	struct sigaction sa = { .sa_sigaction = on_tick, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN + 2, &sa, NULL);
	pthread_t th;
	pthread_create(&th, NULL, sleeper, NULL);
	while (!__arbor_pthread_tid(th))
		sched_yield();
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN + 2,
			       .sigev_value = { .sival_int = 42 } };
	int target = (int)__arbor_pthread_tid(th);
	ev.sigev_notify_thread_id = target;
	timer_t tm;
	check(timer_create(CLOCK_MONOTONIC, &ev, &tm) == 0, "timer_create SIGEV_THREAD_ID");
	struct itimerspec its = { .it_value = { 0, 20000000 } };
	tick_tid = 0;
	timer_settime(tm, 0, &its, NULL);
	pthread_join(th, NULL);
	check(tick_tid == target && tick_code == SI_TIMER && tick_value == 42,
	      "its signal runs on that thread, SI_TIMER with the value");
	timer_delete(tm);
	ev.sigev_notify_thread_id = 999999;
	check_errno(timer_create(CLOCK_MONOTONIC, &ev, &tm), EINVAL, "SIGEV_THREAD_ID of no thread: EINVAL");

	struct sigevent tev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = timer_fn,
				.sigev_value = { .sival_int = 7 } };
	check(timer_create(CLOCK_REALTIME, &tev, &tm) == 0, "timer_create SIGEV_THREAD");
	struct itimerspec per = { .it_interval = { 0, 10000000 }, .it_value = { 0, 10000000 } };
	timer_settime(tm, 0, &per, NULL);
	double end = now_s() + 5;
	while (thread_fn_calls < 3 && now_s() < end)
		sched_yield();
	timer_delete(tm);
	printf("# SIGEV_THREAD: %d calls, value %d, tid %d (ours %d)\n", thread_fn_calls, thread_fn_value,
	       thread_fn_tid, (int)sys_gettid());
	check(thread_fn_calls >= 3 && thread_fn_value == 7 && thread_fn_tid != (int)sys_gettid(),
	      "SIGEV_THREAD calls its function with the value on another thread, each period");
	int calls = thread_fn_calls;
	struct timespec ts = { 0, 50000000 };
	nanosleep(&ts, NULL);
	check(thread_fn_calls <= calls + 1, "and no more once deleted");

	/* A function slower than its period: expiries come while it runs,
	 * on its thread (signal 32, which pthread_sigmask leaves unblocked
	 * for pthread_cancel); they must wait for it, not end the process. */
	slow_fn_calls = 0;
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = slow_fn };
	check(timer_create(CLOCK_MONOTONIC, &sev, &tm) == 0, "timer_create SIGEV_THREAD, a 20 ms function");
	struct itimerspec fast = { .it_interval = { 0, 5000000 }, .it_value = { 0, 5000000 } };
	timer_settime(tm, 0, &fast, NULL);
	end = now_s() + 5;
	while (slow_fn_calls < 4 && now_s() < end)
		sched_yield();
	timer_delete(tm);
	check(slow_fn_calls >= 4, "every 5 ms: it runs again and again, and the process lives on");
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } parts[] = {
		{ "frames", test_frames_per_thread }, { "bounds", test_bounds }, { "rights", test_rights },
		{ "threads", test_thread_signals }, { "timers", test_thread_timers },
	};
	setvbuf(stdout, NULL, _IONBF, 0);
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) /* all, or those named */
		if (argc < 2 || strstr(argv[1], parts[i].name))
			parts[i].fn();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
