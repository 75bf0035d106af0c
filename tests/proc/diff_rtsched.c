/* Differential test: the real-time scheduling policies and the thread
 * scheduling attributes (issue 21). Policies and priorities, the errno of
 * each bad call as root and as uid 1000, what fork and pthread_create
 * inherit (SCHED_RESET_ON_FORK, PTHREAD_EXPLICIT_SCHED), the RR interval,
 * the attribute objects' defaults and errors, priority-protect and
 * priority-inherit mutexes, CPU sets and affinity. Runs as root; prints
 * what happened, so its output compares with Linux byte for byte. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EFAULT: return "EFAULT";
	case ENOTSUP: return "ENOTSUP";
	case EDEADLK: return "EDEADLK";
	case EBUSY: return "EBUSY";
	default: return "other";
	}
}

/* -1 and errno of a call, or its value. */
#define SHOW(label, call) do { \
	errno = 0; \
	long _r = (long)(call); \
	if (_r == -1) \
		printf("%s: -1 %s\n", label, err_name(errno)); \
	else \
		printf("%s: %ld\n", label, _r); \
} while (0)

/* A pthread call's result (an error number). */
#define SHOWE(label, call) printf("%s: %s\n", label, err_name(call))

static void show_self(const char *who)
{
	struct sched_param p = { -1 };
	int pol = sched_getscheduler(0);
	sched_getparam(0, &p);
	printf("%s: policy %d (reset %d) priority %d\n", who, pol & ~SCHED_RESET_ON_FORK,
	       !!(pol & SCHED_RESET_ON_FORK), p.sched_priority);
}

static void set(int policy, int prio)
{
	struct sched_param p = { prio };
	if (sched_setscheduler(0, policy, &p))
		printf("setscheduler(%d, %d) failed: %s\n", policy, prio, err_name(errno));
}

static void limits(void)
{
	int pols[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_BATCH, SCHED_IDLE, 4, 8, -1 };
	for (unsigned i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		char l[64];
		snprintf(l, sizeof(l), "priority max of %d", pols[i]);
		SHOW(l, sched_get_priority_max(pols[i]));
		snprintf(l, sizeof(l), "priority min of %d", pols[i]);
		SHOW(l, sched_get_priority_min(pols[i]));
	}
}

static pid_t gone_pid(void)
{
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	return c;
}

static void bad_calls(const char *who)
{
	struct sched_param p = { 10 }, zero = { 0 }, big = { 100 }, neg = { -1 };
	pid_t gone = gone_pid();
	printf("-- bad calls as %s\n", who);
	SHOW("setscheduler policy 4", sched_setscheduler(0, 4, &p));
	SHOW("setscheduler policy -1", sched_setscheduler(0, -1, &p));
	SHOW("setscheduler FIFO priority 0", sched_setscheduler(0, SCHED_FIFO, &zero));
	SHOW("setscheduler FIFO priority 100", sched_setscheduler(0, SCHED_FIFO, &big));
	SHOW("setscheduler RR priority -1", sched_setscheduler(0, SCHED_RR, &neg));
	SHOW("setscheduler OTHER priority 10", sched_setscheduler(0, SCHED_OTHER, &p));
	SHOW("setscheduler pid -1", sched_setscheduler(-1, SCHED_FIFO, &p));
	SHOW("setscheduler NULL param", sched_setscheduler(0, SCHED_FIFO, NULL));
	SHOW("setscheduler bad param", sched_setscheduler(0, SCHED_FIFO, (struct sched_param *)8));
	SHOW("setscheduler gone pid", sched_setscheduler(gone, SCHED_FIFO, &p));
	SHOW("setparam pid -1", sched_setparam(-1, &p));
	SHOW("setparam NULL", sched_setparam(0, NULL));
	SHOW("setparam gone pid", sched_setparam(gone, &zero));
	SHOW("setparam 100", sched_setparam(0, &big));
	SHOW("getscheduler pid -1", sched_getscheduler(-1));
	SHOW("getscheduler gone pid", sched_getscheduler(gone));
	SHOW("getparam pid -1", sched_getparam(-1, &p));
	SHOW("getparam NULL", sched_getparam(0, NULL));
	SHOW("getparam bad pointer", sched_getparam(0, (struct sched_param *)8));
	SHOW("getparam gone pid", sched_getparam(gone, &p));
	struct timespec ts;
	SHOW("rr_get_interval pid -1", sched_rr_get_interval(-1, &ts));
	SHOW("rr_get_interval gone pid", sched_rr_get_interval(gone, &ts));
}

static void interval(const char *what)
{
	struct timespec ts = { -1, -1 };
	int r = sched_rr_get_interval(0, &ts);
	printf("rr interval under %s: %d %ld.%09ld\n", what, r, (long)ts.tv_sec, ts.tv_nsec);
}

static void *thread_report(void *arg)
{
	int *out = arg;
	struct sched_param p;
	out[0] = sched_getscheduler(0);
	sched_getparam(0, &p);
	out[1] = p.sched_priority;
	int pol;
	pthread_getschedparam(pthread_self(), &pol, &p);
	out[2] = pol;
	out[3] = p.sched_priority;
	return NULL;
}

static void create_with(const char *what, pthread_attr_t *a)
{
	int out[4] = { -9, -9, -9, -9 };
	pthread_t t;
	int e = pthread_create(&t, a, thread_report, out);
	if (e) {
		printf("thread %s: create %s\n", what, err_name(e));
		return;
	}
	pthread_join(t, NULL);
	printf("thread %s: policy %d priority %d; pthread_getschedparam %d %d\n", what, out[0], out[1],
	       out[2], out[3]);
}

static void inheritance(void)
{
	printf("-- inheritance\n");
	set(SCHED_RR, 30);
	show_self("parent RR 30");
	interval("RR");
	pid_t c = fork();
	if (c == 0) {
		show_self("forked child");
		_exit(0);
	}
	waitpid(c, NULL, 0);
	create_with("default attr", NULL);
	pthread_attr_t a;
	pthread_attr_init(&a);
	create_with("attr, inherit", &a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	create_with("explicit, nothing set", &a);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	struct sched_param p = { 5 };
	pthread_attr_setschedparam(&a, &p);
	create_with("explicit FIFO 5", &a);
	pthread_attr_setschedpolicy(&a, SCHED_OTHER);
	p.sched_priority = 0;
	pthread_attr_setschedparam(&a, &p);
	create_with("explicit OTHER 0", &a);
	pthread_attr_destroy(&a);

	set(SCHED_FIFO | SCHED_RESET_ON_FORK, 40);
	show_self("parent FIFO 40 reset-on-fork");
	interval("FIFO");
	c = fork();
	if (c == 0) {
		show_self("forked child of reset-on-fork");
		_exit(0);
	}
	waitpid(c, NULL, 0);
	create_with("of reset-on-fork", NULL);
	struct sched_param q = { 35 };
	SHOW("setparam 35 keeps the flag", sched_setparam(0, &q));
	show_self("after setparam");
	set(SCHED_OTHER, 0);
	show_self("back to OTHER");
	set(SCHED_BATCH, 0);
	show_self("BATCH");
	set(SCHED_IDLE, 0);
	show_self("IDLE");
	set(SCHED_OTHER, 0);
}

static void as_user(void)
{
	pid_t root_pid = getpid();
	pid_t c = fork();
	if (c == 0) {
		set(SCHED_RR | SCHED_RESET_ON_FORK, 20);
		if (setuid(1000)) {
			printf("setuid failed\n");
			_exit(1);
		}
		bad_calls("uid 1000");
		struct sched_param p = { 10 }, hi = { 25 }, same = { 20 }, zero = { 0 };
		printf("-- uid 1000 and its own RR 20 (reset-on-fork)\n");
		SHOW("clear reset-on-fork", sched_setscheduler(0, SCHED_RR, &same));
		SHOW("lower to 10", sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &p));
		show_self("lowered");
		SHOW("raise to 25", sched_setparam(0, &hi));
		SHOW("RR to FIFO 10", sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &p));
		SHOW("to OTHER", sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &zero));
		show_self("OTHER");
		SHOW("back to RR 1", sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &(struct sched_param){ 1 }));
		SHOW("BATCH", sched_setscheduler(0, SCHED_BATCH | SCHED_RESET_ON_FORK, &zero));
		SHOW("IDLE", sched_setscheduler(0, SCHED_IDLE | SCHED_RESET_ON_FORK, &zero));
		SHOW("IDLE to OTHER", sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &zero));
		show_self("still IDLE");
		SHOW("root's process: getscheduler", sched_getscheduler(root_pid));
		SHOW("root's process: setparam", sched_setparam(root_pid, &zero));
		SHOW("root's process: setscheduler OTHER", sched_setscheduler(root_pid, SCHED_OTHER, &zero));
		cpu_set_t s;
		CPU_ZERO(&s);
		CPU_SET(0, &s);
		SHOW("root's process: setaffinity", sched_setaffinity(root_pid, sizeof(s), &s));
		SHOW("root's process: getaffinity", sched_getaffinity(root_pid, sizeof(s), &s));
		pthread_t self = pthread_self();
		SHOWE("pthread_setschedparam FIFO 1", pthread_setschedparam(self, SCHED_FIFO, &(struct sched_param){ 1 }));
		_exit(0);
	}
	waitpid(c, NULL, 0);
}

static void attributes(void)
{
	printf("-- attribute objects\n");
	pthread_attr_t a;
	pthread_attr_init(&a);
	int v = -9;
	struct sched_param p = { -9 };
	pthread_attr_getinheritsched(&a, &v);
	printf("default inheritsched %d\n", v);
	pthread_attr_getschedpolicy(&a, &v);
	printf("default policy %d\n", v);
	pthread_attr_getschedparam(&a, &p);
	printf("default priority %d\n", p.sched_priority);
	pthread_attr_getscope(&a, &v);
	printf("default scope %d\n", v);
	SHOWE("setscope PROCESS", pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS));
	SHOWE("setscope 5", pthread_attr_setscope(&a, 5));
	SHOWE("setscope SYSTEM", pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM));
	SHOWE("setinheritsched 7", pthread_attr_setinheritsched(&a, 7));
	SHOWE("setschedpolicy 7", pthread_attr_setschedpolicy(&a, 7));
	SHOWE("setschedpolicy BATCH", pthread_attr_setschedpolicy(&a, SCHED_BATCH));
	SHOWE("setschedparam 5 under OTHER", pthread_attr_setschedparam(&a, &(struct sched_param){ 5 }));
	SHOWE("setschedpolicy FIFO", pthread_attr_setschedpolicy(&a, SCHED_FIFO));
	SHOWE("setschedparam 0 under FIFO", pthread_attr_setschedparam(&a, &(struct sched_param){ 0 }));
	SHOWE("setschedparam 100 under FIFO", pthread_attr_setschedparam(&a, &(struct sched_param){ 100 }));
	SHOWE("setschedparam 99 under FIFO", pthread_attr_setschedparam(&a, &(struct sched_param){ 99 }));
	pthread_attr_getschedparam(&a, &p);
	printf("priority now %d\n", p.sched_priority);
	pthread_attr_destroy(&a);

	pthread_t self = pthread_self();
	SHOWE("pthread_setschedparam policy 9", pthread_setschedparam(self, 9, &(struct sched_param){ 1 }));
	SHOWE("pthread_setschedparam FIFO 0", pthread_setschedparam(self, SCHED_FIFO, &(struct sched_param){ 0 }));
	SHOWE("pthread_setschedparam FIFO 12", pthread_setschedparam(self, SCHED_FIFO, &(struct sched_param){ 12 }));
	int pol;
	pthread_getschedparam(self, &pol, &p);
	printf("pthread_getschedparam: %d %d\n", pol, p.sched_priority);
	SHOWE("pthread_setschedprio 14", pthread_setschedprio(self, 14));
	SHOWE("pthread_setschedprio 100", pthread_setschedprio(self, 100));
	show_self("after setschedprio");
	SHOWE("pthread_setschedparam OTHER 0", pthread_setschedparam(self, SCHED_OTHER, &(struct sched_param){ 0 }));
}

static void *stack_report(void *arg)
{
	size_t *out = arg;
	pthread_attr_t a;
	void *addr;
	out[0] = (size_t)pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstack(&a, &addr, &out[2]);
	out[1] = (size_t)addr;
	pthread_attr_getguardsize(&a, &out[3]);
	int v;
	pthread_attr_getdetachstate(&a, &v);
	out[4] = (size_t)v;
	pthread_attr_getinheritsched(&a, &v);
	out[5] = (size_t)v;
	pthread_attr_getschedpolicy(&a, &v);
	out[6] = (size_t)v;
	pthread_attr_destroy(&a);
	return NULL;
}

static void thread_attrs(void)
{
	printf("-- guard size, pthread_getattr_np, thread affinity\n");
	pthread_attr_t a;
	size_t g = 1;
	pthread_attr_init(&a);
	pthread_attr_getguardsize(&a, &g);
	printf("default guard %zu\n", g);
	SHOWE("setguardsize 3 pages", pthread_attr_setguardsize(&a, 3 * 4096));
	SHOWE("setguardsize 0", pthread_attr_setguardsize(&a, 0));
	SHOWE("setguardsize 100", pthread_attr_setguardsize(&a, 100));
	pthread_attr_getguardsize(&a, &g);
	printf("guard now %zu\n", g);
	static char stack[1 << 16] __attribute__((aligned(4096)));
	pthread_attr_setstack(&a, stack, sizeof(stack));
	size_t out[7];
	pthread_t t;
	pthread_create(&t, &a, stack_report, out);
	pthread_join(t, NULL);
	printf("getattr_np %s: stack ours %d size %zu, detach %zu inherit %zu policy %zu\n",
	       err_name((int)out[0]), out[1] == (size_t)stack, out[2], out[4], out[5], out[6]);
	pthread_attr_destroy(&a);
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 1 << 17);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	volatile int spin = 1;
	(void)spin;
	pthread_create(&t, &a, stack_report, out);
	usleep(200000);
	printf("detached, explicit: getattr_np %s: size %zu guard %zu, detach %zu inherit %zu policy %zu\n",
	       err_name((int)out[0]), out[2], out[3], out[4], out[5], out[6]);
	pthread_attr_destroy(&a);
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(0, &s);
	errno = 0;
	SHOWE("pthread_setaffinity_np CPU 0", pthread_setaffinity_np(pthread_self(), sizeof(s), &s));
	SHOWE("pthread_getaffinity_np", pthread_getaffinity_np(pthread_self(), sizeof(s), &s));
	printf("CPU 0 in it: %d, errno %d\n", CPU_ISSET(0, &s), errno);
	CPU_ZERO(&s);
	SHOWE("pthread_setaffinity_np empty", pthread_setaffinity_np(pthread_self(), sizeof(s), &s));
	SHOWE("pthread_getaffinity_np size 4", pthread_getaffinity_np(pthread_self(), 4, &s));
	printf("errno %d\n", errno);
}

static void mutexes(void)
{
	printf("-- mutex protocols\n");
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	int v = -9;
	pthread_mutexattr_getprotocol(&ma, &v);
	printf("default protocol %d\n", v);
	pthread_mutexattr_getprioceiling(&ma, &v);
	printf("default ceiling %d\n", v);
	SHOWE("setprotocol 3", pthread_mutexattr_setprotocol(&ma, 3));
	SHOWE("setprioceiling 0", pthread_mutexattr_setprioceiling(&ma, 0));
	SHOWE("setprioceiling 100", pthread_mutexattr_setprioceiling(&ma, 100));
	SHOWE("setprioceiling 50", pthread_mutexattr_setprioceiling(&ma, 50));
	pthread_mutexattr_getprioceiling(&ma, &v);
	printf("ceiling %d\n", v);

	pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
	SHOWE("getprioceiling of a plain mutex", pthread_mutex_getprioceiling(&plain, &v));
	SHOWE("setprioceiling of a plain mutex", pthread_mutex_setprioceiling(&plain, 10, &v));

	SHOWE("setprotocol PROTECT", pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_PROTECT));
	pthread_mutex_t pp;
	pthread_mutex_init(&pp, &ma);
	pthread_mutex_getprioceiling(&pp, &v);
	printf("PP mutex ceiling %d\n", v);
	int old = -9;
	SHOWE("mutex setprioceiling 100", pthread_mutex_setprioceiling(&pp, 100, &old));
	SHOWE("mutex setprioceiling 60", pthread_mutex_setprioceiling(&pp, 60, &old));
	pthread_mutex_getprioceiling(&pp, &v);
	printf("old %d, ceiling now %d\n", old, v);

	SHOWE("PP lock as OTHER", pthread_mutex_lock(&pp));
	show_self("OTHER after PP lock attempt");
	set(SCHED_FIFO, 10);
	SHOWE("PP lock as FIFO 10", pthread_mutex_lock(&pp));
	show_self("holding the ceiling-60 mutex");
	int pol;
	struct sched_param p;
	pthread_getschedparam(pthread_self(), &pol, &p);
	printf("pthread_getschedparam while held: %d %d\n", pol, p.sched_priority);
	SHOWE("PP unlock", pthread_mutex_unlock(&pp));
	show_self("after unlock");
	pthread_mutex_setprioceiling(&pp, 5, &old);
	SHOWE("PP lock of ceiling 5 as FIFO 10", pthread_mutex_lock(&pp));
	SHOWE("PP trylock of ceiling 5 as FIFO 10", pthread_mutex_trylock(&pp));
	pthread_mutex_destroy(&pp);

	printf("-- priority inheritance mutex\n");
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_t pi;
	SHOWE("PI init", pthread_mutex_init(&pi, &ma));
	SHOWE("PI lock", pthread_mutex_lock(&pi));
	SHOWE("PI relock (errorcheck)", pthread_mutex_lock(&pi));
	SHOWE("PI trylock", pthread_mutex_trylock(&pi));
	SHOWE("PI unlock", pthread_mutex_unlock(&pi));
	SHOWE("PI unlock again", pthread_mutex_unlock(&pi));
	SHOWE("PI trylock free", pthread_mutex_trylock(&pi));
	SHOWE("PI destroy held", pthread_mutex_destroy(&pi));
	SHOWE("PI unlock", pthread_mutex_unlock(&pi));
	SHOWE("PI destroy", pthread_mutex_destroy(&pi));
	pthread_mutexattr_destroy(&ma);
	set(SCHED_OTHER, 0);
}

static void cpusets(void)
{
	printf("-- CPU sets\n");
	cpu_set_t a, b, c;
	CPU_ZERO(&a);
	CPU_ZERO(&b);
	CPU_SET(3, &a);
	CPU_SET(70, &a);
	CPU_SET(70, &b);
	CPU_SET(1023, &b);
	CPU_SET(5000, &b); /* out of the set: nothing */
	printf("count a %d b %d, isset 3 %d 4 %d 70 %d\n", CPU_COUNT(&a), CPU_COUNT(&b), CPU_ISSET(3, &a),
	       CPU_ISSET(4, &a), CPU_ISSET(70, &a));
	CPU_AND(&c, &a, &b);
	printf("and %d (70: %d)\n", CPU_COUNT(&c), CPU_ISSET(70, &c));
	CPU_OR(&c, &a, &b);
	printf("or %d\n", CPU_COUNT(&c));
	CPU_XOR(&c, &a, &b);
	printf("xor %d equal-to-a %d\n", CPU_COUNT(&c), CPU_EQUAL(&c, &a));
	CPU_CLR(3, &a);
	printf("after clr: %d\n", CPU_COUNT(&a));
	printf("CPU_SETSIZE %d sizeof %zu alloc size of 200: %zu\n", CPU_SETSIZE, sizeof(cpu_set_t),
	       CPU_ALLOC_SIZE(200));
	cpu_set_t *d = CPU_ALLOC(200);
	size_t ds = CPU_ALLOC_SIZE(200);
	CPU_ZERO_S(ds, d);
	CPU_SET_S(199, ds, d);
	CPU_SET_S(300, ds, d);
	printf("dynamic: count %d isset 199 %d 300 %d\n", CPU_COUNT_S(ds, d), CPU_ISSET_S(199, ds, d),
	       CPU_ISSET_S(300, ds, d));
	CPU_FREE(d);

	cpu_set_t s;
	memset(&s, 0xff, sizeof(s));
	SHOW("getaffinity", sched_getaffinity(0, sizeof(s), &s));
	printf("CPU 0 in it: %d\n", CPU_ISSET(0, &s));
	SHOW("getaffinity size 4", sched_getaffinity(0, 4, &s));
	SHOW("getaffinity size 12", sched_getaffinity(0, 12, &s));
	SHOW("getaffinity bad pointer", sched_getaffinity(0, sizeof(s), (cpu_set_t *)8));
	SHOW("getaffinity gone pid", sched_getaffinity(gone_pid(), sizeof(s), &s));
	SHOW("getaffinity pid -1", sched_getaffinity(-1, sizeof(s), &s));
	CPU_ZERO(&s);
	CPU_SET(0, &s);
	SHOW("setaffinity CPU 0", sched_setaffinity(0, sizeof(s), &s));
	CPU_ZERO(&s);
	SHOW("setaffinity empty", sched_setaffinity(0, sizeof(s), &s));
	CPU_SET(1000, &s);
	SHOW("setaffinity CPU 1000 alone", sched_setaffinity(0, sizeof(s), &s));
	SHOW("setaffinity bad pointer", sched_setaffinity(0, sizeof(s), (cpu_set_t *)8));
	CPU_SET(0, &s);
	SHOW("setaffinity gone pid", sched_setaffinity(gone_pid(), sizeof(s), &s));
	printf("sched_getcpu >= 0: %d\n", sched_getcpu() >= 0);
	/* the mask again: all CPUs the host has (here CPU 0 is enough) */
	sched_getaffinity(0, sizeof(s), &s);
	printf("still on CPU 0: %d\n", CPU_ISSET(0, &s));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	limits();
	show_self("start");
	bad_calls("root");
	inheritance();
	attributes();
	mutexes();
	thread_attrs();
	cpusets();
	as_user();
	struct sched_param sp = { 7 };
	SHOW("syscall(SYS_sched_setscheduler, FIFO 7)", syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &sp));
	SHOW("syscall(SYS_sched_getscheduler)", syscall(SYS_sched_getscheduler, 0));
	sp.sched_priority = 0;
	SHOW("syscall(SYS_sched_getparam)", syscall(SYS_sched_getparam, 0, &sp));
	printf("priority %d\n", sp.sched_priority);
	sp.sched_priority = 9;
	SHOW("syscall(SYS_sched_setparam, 9)", syscall(SYS_sched_setparam, 0, &sp));
	SHOW("syscall(SYS_sched_get_priority_max, RR)", syscall(SYS_sched_get_priority_max, SCHED_RR));
	SHOW("syscall(SYS_sched_get_priority_min, 9)", syscall(SYS_sched_get_priority_min, 9));
	sp.sched_priority = 0;
	SHOW("syscall(SYS_sched_setscheduler, OTHER)", syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp));
	show_self("end");
	return 0;
}
