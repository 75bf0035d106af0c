/* The cpuset controller (cgroup/controllers/cpuset.c) through cgroupfs,
 * on however many CPUs schedule: the files each cgroup has and their
 * text, Linux's list syntax and errnos, ENOSPC for emptying a populated
 * cgroup's list, sched_setaffinity within the cpuset (EINVAL outside).
 * On two CPUs or more (--smp 2, make test's boots): a busy process in a cpuset of CPU 1
 * stays on CPU 1 and moves at once when the cpuset changes to CPU 0; its
 * own affinity is intersected with the cpuset and comes back when the
 * cpuset widens; partition roots take CPUs from the root, and a parent
 * that gave all its CPUs away takes no process (ENOSPC); the invalid
 * states read as Linux 6.1's; a thread moved alone into a threaded
 * cpuset (cgroup.threads) runs there, and moves when it changes.
 * /proc/PID/cpuset and /proc/PID/task/TID/cpuset name the cgroup whose
 * cpuset governs the process (thread): its own where its parent enables
 * cpuset, else the nearest such ancestor's, "/" at last (Linux 6.1's
 * text, checked with ../shared/tools/linux-run). Run as /posix/cpuset in
 * /sys/fs/cgroup/posix_cpuset (kernel/test/test_user.c). Prints TAP. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include "check.h"
#include "cpumask.h"

#define ROOT "/sys/fs/cgroup"
#define BASE ROOT "/cpuset_t"
#define PART ROOT "/cpuset_p"
#define HOME ROOT "/posix_cpuset"	/* this process's cgroup */

static int ncpu;
static char all[16];	/* every CPU as a list: "0\n", "0-1\n", "0-3\n" */

/* put's errno (0 if it worked). */
static int put_err(const char *path, const char *text)
{
	return put(path, text) ? errno : 0;
}

static int move(const char *cg, pid_t pid)
{
	char path[128], text[16];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(text, sizeof(text), "%d", (int)pid);
	return put_err(path, text);
}

/* /proc/PID/cpuset (pid 0: self) is want (with its newline). */
static int cpuset_of_is(pid_t pid, const char *want)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/cpuset", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/cpuset");
	return text_is(path, want);
}

/* ---- a busy process that says where it runs ---- */

static int to_busy[2], from_busy[2];
static pid_t busy;

/* Spins; each byte from the parent is answered with sched_getcpu(). */
static void busy_loop(void)
{
	fcntl(to_busy[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		char c;
		ssize_t r = read(to_busy[0], &c, 1);
		if (r == 0)
			_exit(0);
		if (r == 1) {
			char cpu = (char)sched_getcpu();
			(void)!write(from_busy[1], &cpu, 1);
		}
	}
}

static void busy_start(void)
{
	if (pipe(to_busy) || pipe(from_busy))
		return;
	busy = fork();
	if (busy == 0) {
		close(to_busy[1]); /* so that the parent's close ends it */
		close(from_busy[0]);
		busy_loop();
	}
	close(to_busy[0]);
	close(from_busy[1]);
}

static int busy_cpu(void)
{
	char c = 'r';
	if (write(to_busy[1], &c, 1) != 1 || read(from_busy[0], &c, 1) != 1)
		return -1;
	return c;
}

/* It runs on cpu within a second (at once, but a loaded host may hold
 * QEMU's CPU thread back), then on every one of 20 asks. */
static int busy_on(int cpu)
{
	double end = now_s() + 1;
	while (busy_cpu() != cpu && now_s() < end)
		;
	for (int i = 0; i < 20; i++)
		if (busy_cpu() != cpu)
			return 0;
	return 1;
}

static void busy_stop(void)
{
	close(to_busy[1]);
	int st;
	waitpid(busy, &st, 0);
	close(from_busy[0]);
}

/* ---- every boot ---- */

static void files(void)
{
	char buf[256];
	check(slurp(ROOT "/cgroup.controllers", buf, sizeof(buf)) > 0 && strncmp(buf, "cpuset cpu ", 11) == 0,
	      "the root offers cpuset, first (Linux's order)");
	check(text_is(ROOT "/cpuset.cpus.effective", all) && text_is(ROOT "/cpuset.mems.effective", "0\n"),
	      "the root: every CPU that schedules, memory node 0");
	check(fails(open(ROOT "/cpuset.cpus", O_RDONLY), ENOENT) && fails(open(ROOT "/cpuset.mems", O_RDONLY), ENOENT) &&
	      fails(open(ROOT "/cpuset.cpus.partition", O_RDONLY), ENOENT),
	      "the root has no cpuset.cpus, cpuset.mems, cpuset.cpus.partition");
	check(cpuset_of_is(0, "/\n"), "no cpuset below the root: /proc/self/cpuset is /");
	check(put(ROOT "/cgroup.subtree_control", "+cpuset") == 0 && mkdir(BASE, 0755) == 0, "+cpuset, mkdir " BASE);
	check(cpuset_of_is(0, "/posix_cpuset\n"), "+cpuset at the root: /proc/self/cpuset is its own cgroup");
	check(text_is(BASE "/cpuset.cpus", "\n") && text_is(BASE "/cpuset.cpus.effective", all) &&
	      text_is(BASE "/cpuset.mems", "\n") && text_is(BASE "/cpuset.mems.effective", "0\n") &&
	      text_is(BASE "/cpuset.cpus.partition", "member\n"),
	      "a child: empty lists, the root's CPUs, member");
	check(put(BASE "/cpuset.cpus.effective", "0") == -1, "cpuset.cpus.effective cannot be written");
}

static void lists(void)
{
	char big[8];
	snprintf(big, sizeof(big), "%d", ncpu);
	check(put_err(BASE "/cpuset.cpus", "x") == EINVAL && put_err(BASE "/cpuset.cpus", "1-0") == EINVAL &&
	      put_err(BASE "/cpuset.cpus", "0-") == EINVAL && put_err(BASE "/cpuset.cpus", "0:1/2") == EINVAL,
	      "malformed lists: EINVAL");
	check(put_err(BASE "/cpuset.cpus", big) == ERANGE && put_err(BASE "/cpuset.cpus", "0-31") == ERANGE,
	      "a CPU past the last one: ERANGE (Linux 6.1's cpulist_parse)");
	check(put_err(BASE "/cpuset.cpus", "99999999999") == EOVERFLOW, "past 32 bits: EOVERFLOW");
	check(text_is(BASE "/cpuset.cpus", "\n"), "and nothing changed");
	check(put(BASE "/cpuset.cpus", " 0 \n") == 0 && text_is(BASE "/cpuset.cpus", "0\n") &&
	      text_is(BASE "/cpuset.cpus.effective", "0\n"),
	      "0: cpuset.cpus and cpuset.cpus.effective");
	check(put(BASE "/cpuset.cpus", "N") == 0 && text_is(BASE "/cpuset.cpus", ncpu == 1 ? "0\n" : ncpu == 2 ? "1\n" : "3\n"),
	      "N: the last CPU");
	check(put(BASE "/cpuset.cpus", "all") == 0 && text_is(BASE "/cpuset.cpus", all), "all: every CPU, as a range");
	check(put(BASE "/cpuset.cpus", "\n") == 0 && text_is(BASE "/cpuset.cpus", "\n"), "a newline: empty again");
	check(put_err(BASE "/cpuset.mems", "1") == EINVAL && put(BASE "/cpuset.mems", "0") == 0 &&
	      text_is(BASE "/cpuset.mems", "0\n") && put(BASE "/cpuset.mems", "\n") == 0,
	      "cpuset.mems: node 0 only (1 is EINVAL)");
}

/* A process in a cpuset: its mask, sched_setaffinity inside and outside,
 * ENOSPC for emptying its list. */
static void one_cpu_rules(void)
{
	check(put(BASE "/cgroup.subtree_control", "+cpuset") == 0 && mkdir(BASE "/a", 0755) == 0 &&
	      put(BASE "/a/cpuset.cpus", "0") == 0,
	      "a: cpuset.cpus 0");
	busy_start();
	check(busy > 0 && move(BASE "/a", busy) == 0 && mask_of(busy) == 1 && busy_on(0),
	      "a process moved into a: sched_getaffinity is CPU 0, and it runs there");
	check(fails(set_mask(busy, 0x7ffffffe), EINVAL) && mask_of(busy) == 1,
	      "sched_setaffinity with no CPU of the cpuset: EINVAL");
	check(put_err(BASE "/a/cpuset.cpus", "\n") == ENOSPC && text_is(BASE "/a/cpuset.cpus", "0\n"),
	      "emptying cpuset.cpus of a cgroup with a process: ENOSPC");
	check(put_err(BASE "/cpuset.cpus", "\n") == 0, "its parent's (empty already): fine");
	check(put(BASE "/a/cpuset.mems", "0") == 0 && put_err(BASE "/a/cpuset.mems", "\n") == ENOSPC,
	      "emptying cpuset.mems too");
	check(put(BASE "/a/cpuset.cpus.partition", "root") == 0 &&
	      text_is(BASE "/a/cpuset.cpus.partition", "root invalid (Parent is not a partition root)\n"),
	      "a partition root under a member: root invalid (Parent is not a partition root)");
	check(put(BASE "/a/cpuset.cpus.partition", "member") == 0 && put_err(BASE "/a/cpuset.cpus.partition", "rooot") == EINVAL,
	      "member again; a bad word is EINVAL");
	check(cpuset_of_is(busy, "/cpuset_t/a\n"), "/proc/PID/cpuset of the process in a: /cpuset_t/a");
	pid_t kid = fork();
	if (kid == 0) {
		pause();
		_exit(0);
	}
	check(kid > 0 && mkdir(BASE "/a/plain", 0755) == 0 && move(BASE "/a/plain", kid) == 0 &&
	      cpuset_of_is(kid, "/cpuset_t/a\n"),
	      "a process in a/plain (no cpuset enabled in a): its cpuset is a's");
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	check(rmdir(BASE "/a/plain") == 0 && fails(open("/proc/999999/cpuset", O_RDONLY), ENOENT),
	      "rmdir a/plain; /proc/999999/cpuset: ENOENT");
	int pfd = mkdir(PART, 0755) == 0 ? open(PART "/cpuset.cpus.partition", O_RDONLY) : -1;
	struct pollfd pp = { .fd = pfd, .events = POLLPRI };
	check(pfd >= 0 && poll(&pp, 1, 0) == 0, "mkdir " PART ": poll on its cpuset.cpus.partition has nothing yet");
	check(put(PART "/cpuset.cpus.partition", "root") == 0 &&
	      text_is(PART "/cpuset.cpus.partition", "root invalid (cpuset.cpus is empty)\n"),
	      "a partition root with no cpuset.cpus: root invalid (cpuset.cpus is empty)");
	check(poll(&pp, 1, 1000) == 1 && pp.revents == (POLLPRI | POLLERR), "the change wakes poll (POLLPRI|POLLERR)");
	close(pfd);
	check(put(PART "/cpuset.cpus.partition", "isolated") == 0 &&
	      text_is(PART "/cpuset.cpus.partition", "isolated invalid (cpuset.cpus is empty)\n"),
	      "isolated: isolated invalid");
	check(put(PART "/cpuset.cpus.partition", "member") == 0, "member");
	if (ncpu == 1) {
		check(put(PART "/cpuset.cpus", "0") == 0 && put(PART "/cpuset.cpus.partition", "root") == 0 &&
		      text_is(PART "/cpuset.cpus.partition", "root invalid (Parent unable to distribute cpu downstream)\n") &&
		      text_is(ROOT "/cpuset.cpus.effective", "0\n"),
		      "one CPU: the root, with processes, keeps it (root invalid)");
		check(put(PART "/cpuset.cpus.partition", "member") == 0, "member");
	}
}

/* ---- two CPUs or more ---- */

static void smp_rules(void)
{
	check(put(BASE "/a/cpuset.cpus", "1") == 0 && mask_of(busy) == 2 && busy_on(1),
	      "a's cpuset changed to CPU 1: the busy process moves there");
	check(put(BASE "/a/cpuset.cpus", "0") == 0 && mask_of(busy) == 1 && busy_on(0),
	      "and back to CPU 0: it moves at once");
	check(put(BASE "/a/cpuset.cpus", "0-1") == 0 && mask_of(busy) == 3 && set_mask(busy, 2) == 0 &&
	      mask_of(busy) == 2 && busy_on(1),
	      "a on 0-1, the process's own affinity CPU 1: it runs on 1");
	check(put(BASE "/a/cpuset.cpus", "0") == 0 && mask_of(busy) == 1 && busy_on(0),
	      "a narrowed to 0: no CPU in common, the cpuset's CPUs (Linux's fallback)");
	check(fails(set_mask(busy, 2), EINVAL), "sched_setaffinity to CPU 1 outside the cpuset: EINVAL");
	check(put(BASE "/a/cpuset.cpus", "0-1") == 0 && mask_of(busy) == 2 && busy_on(1),
	      "a widened again: the requested CPU 1 is back");
	check(set_mask(busy, 3) == 0 && put(BASE "/a/cpuset.cpus", "1") == 0 && busy_on(1), "CPU 1 again");

	/* partitions: cpuset_p takes CPU 1 from the root */
	char rest[16];
	snprintf(rest, sizeof(rest), ncpu == 2 ? "0\n" : "0,2-%d\n", ncpu - 1);
	check(put(PART "/cpuset.cpus", "1") == 0 && put(PART "/cpuset.cpus.partition", "root") == 0 &&
	      text_is(PART "/cpuset.cpus.partition", "root\n") && text_is(PART "/cpuset.cpus.effective", "1\n") &&
	      text_is(ROOT "/cpuset.cpus.effective", rest),
	      "a partition root on CPU 1: valid, CPU 1 leaves the root's effective CPUs");
	check(text_is(BASE "/cpuset.cpus.effective", rest) && text_is(BASE "/a/cpuset.cpus.effective", rest) &&
	      busy_on(0),
	      "a (cpuset.cpus 1) falls back to its parent's CPUs: the process leaves CPU 1");
	check(put(BASE "/cpuset.cpus", "1") == 0 && text_is(BASE "/cpuset.cpus.effective", "1\n"),
	      "a sibling listing CPU 1 is allowed ...");
	check(text_is(PART "/cpuset.cpus.partition", "root invalid (Cpu list in cpuset.cpus not exclusive)\n") &&
	      text_is(ROOT "/cpuset.cpus.effective", all),
	      "... and invalidates the partition: CPU 1 is the root's again");
	check(put(BASE "/cpuset.cpus", "0") == 0 && put(PART "/cpuset.cpus.partition", "member") == 0 &&
	      put(PART "/cpuset.cpus.partition", "root") == 0 && text_is(PART "/cpuset.cpus.partition", "root\n"),
	      "the overlap gone, member then root: valid again");
	check(put(PART "/cgroup.subtree_control", "+cpuset") == 0 && mkdir(PART "/q", 0755) == 0 &&
	      mkdir(PART "/q2", 0755) == 0 && put(PART "/q2/cpuset.cpus", "0") == 0 &&
	      put(PART "/q2/cpuset.cpus.partition", "root") == 0 &&
	      text_is(PART "/q2/cpuset.cpus.partition", "root invalid (Invalid cpu list in cpuset.cpus)\n"),
	      "a child partition with none of its parent's CPUs: root invalid (Invalid cpu list ...)");
	check(rmdir(PART "/q2") == 0 && put(PART "/q/cpuset.cpus", "1") == 0 &&
	      put(PART "/q/cpuset.cpus.partition", "root") == 0 && text_is(PART "/q/cpuset.cpus.partition", "root\n") &&
	      text_is(PART "/cpuset.cpus.effective", "\n") && text_is(PART "/q/cpuset.cpus.effective", "1\n"),
	      "a child partition taking all of its empty parent's CPUs: valid, the parent's effective CPUs empty");
	check(move(PART, busy) == ENOSPC, "moving a process into the cgroup with no effective CPU: ENOSPC");
	check(move(PART "/q", busy) == 0 && mask_of(busy) == 2 && busy_on(1), "into the child partition: it runs on CPU 1");
	check(put_err(PART "/q/cpuset.cpus", "\n") == ENOSPC, "its list cannot be emptied while it has the process");
	check(put(PART "/cpuset.cpus.partition", "member") == 0 &&
	      text_is(PART "/q/cpuset.cpus.partition", "root invalid (Parent is not a partition root)\n") &&
	      text_is(ROOT "/cpuset.cpus.effective", all) && busy_on(1),
	      "the parent made member: the child root invalid (Parent is not a partition root)");
	check(put(PART "/cpuset.cpus.partition", "root") == 0 && text_is(PART "/cpuset.cpus.partition", "root\n"),
	      "the parent root again");
	check(text_is(PART "/q/cpuset.cpus.partition", "root\n") && text_is(PART "/cpuset.cpus.effective", "\n"),
	      "and the child (below the change) is valid again");
	check(move(BASE "/a", busy) == 0, "the process back in a");
}

/* ---- one thread in a threaded cpuset ---- */

static volatile int spin_cpu = -1, spin_moved, spin_stop, spin_tid;

/* Moves itself into HOME/t1 (cgroup.threads "0"), then spins saying
 * where it runs. */
static void *spin_thread(void *arg)
{
	(void)arg;
	spin_tid = gettid();
	spin_moved = put(HOME "/t1/cgroup.threads", "0") == 0 ? 1 : -1;
	while (!spin_stop)
		spin_cpu = sched_getcpu();
	return NULL;
}

/* The spinner runs on cpu within a second (as busy_on), then for 100 ms
 * more. */
static int spin_on(int cpu)
{
	double end = now_s() + 1;
	while (spin_cpu != cpu && now_s() < end)
		sched_yield();
	end = now_s() + 0.1;
	int same = spin_cpu == cpu;
	while (now_s() < end) {
		sched_yield();
		same &= spin_cpu == cpu;
	}
	return same;
}

static void threads(void)
{
	int all_mask = (1 << ncpu) - 1;
	check(mkdir(HOME "/t1", 0755) == 0 && put(HOME "/t1/cgroup.type", "threaded") == 0 &&
	      put(HOME "/cgroup.subtree_control", "+cpuset") == 0 && text_is(HOME "/cgroup.type", "domain threaded\n") &&
	      put(HOME "/t1/cpuset.cpus", "1") == 0,
	      "a threaded child t1 of this process's cgroup, +cpuset there (threaded: allowed), t1 on CPU 1");
	pthread_t t;
	check(pthread_create(&t, NULL, spin_thread, NULL) == 0, "a spinning thread");
	while (!spin_moved)
		sched_yield();
	check(spin_moved == 1 && spin_on(1), "it moves itself into t1 (cgroup.threads) and runs on CPU 1");
	char tpath[96];
	snprintf(tpath, sizeof(tpath), "/proc/self/task/%d/cpuset", spin_tid);
	check(text_is(tpath, "/posix_cpuset/t1\n") && cpuset_of_is(0, "/posix_cpuset\n"),
	      "/proc/self/task/TID/cpuset: /posix_cpuset/t1; the process's (its main thread's): /posix_cpuset");
	check(mask_of(0) == all_mask, "the main thread keeps every CPU");
	check(put(HOME "/t1/cpuset.cpus", "0") == 0 && spin_on(0), "t1 changed to CPU 0: the thread moves at once");
	spin_stop = 1;
	pthread_join(t, NULL);
	check(rmdir(HOME "/t1") == 0 && put(HOME "/cgroup.subtree_control", "-cpuset") == 0, "rmdir t1, -cpuset");
}

static void cleanup(void)
{
	busy_stop();
	rmdir(PART "/q");
	rmdir(PART "/q2");
	check(rmdir(PART) == 0 && text_is(ROOT "/cpuset.cpus.effective", all),
	      "rmdir of the partition: the root has every CPU");
	check(rmdir(BASE "/a") == 0 && rmdir(BASE) == 0 && put(ROOT "/cgroup.subtree_control", "-cpuset") == 0,
	      "rmdir, -cpuset");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	ncpu = get_nprocs();
	snprintf(all, sizeof(all), ncpu == 1 ? "0\n" : "0-%d\n", ncpu - 1);
	printf("# %d CPUs schedule\n", ncpu);
	files();
	lists();
	/* before the busy process: with one queue tree for all CPUs, a
	 * thread its cpuset keeps on a CPU another group's busy thread holds
	 * waits while its own group runs elsewhere (docs/smp.md) */
	if (ncpu >= 2)
		threads();
	one_cpu_rules();
	if (ncpu >= 2)
		smp_rules();
	else
		printf("# one CPU schedules: the two-CPU part needs --smp 2 or more (and not smp_sched=0)\n");
	cleanup();
	printf("1..%d\n", n);
	return failed != 0;
}
