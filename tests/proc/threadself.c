/* Threads in /proc: /proc/thread-self (the directory of the thread that
 * looks), /proc/PID/task listing the threads, /proc/PID/task/TID/{cgroup,
 * comm,stat,status} with the thread's own id and cgroup (a thread moved
 * to another threaded cgroup shows it there, its process's main thread
 * where it was), and the kernel's thread_info/proc_tids errors. Run in
 * cgroup /posix_threadself. */
#define _GNU_SOURCE
#include "arbor/syscalls.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup/posix_threadself"

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

/* The file's text (at most cap-1 bytes), or "" with errno. */
static const char *text(const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return buf;
	ssize_t r = read(fd, buf, cap - 1);
	buf[r > 0 ? r : 0] = '\0';
	close(fd);
	return buf;
}

static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t r = write(fd, s, strlen(s));
	close(fd);
	return r == (ssize_t)strlen(s) ? 0 : -1;
}

static pthread_barrier_t moved, seen;
static char thread_status[512], thread_stat[256], thread_cgroup[256];
static pid_t thread_tid;
static int thread_moved;

static void *worker(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	text("/proc/thread-self/status", thread_status, sizeof(thread_status));
	text("/proc/thread-self/stat", thread_stat, sizeof(thread_stat));
	thread_moved = put(CG "/b/cgroup.threads", "0") == 0;
	text("/proc/thread-self/cgroup", thread_cgroup, sizeof(thread_cgroup));
	pthread_barrier_wait(&moved);
	pthread_barrier_wait(&seen); /* stays alive while main looks at it */
	return NULL;
}

/* The names in dir other than "." and "..", sorted numerically, into
 * ids (at most max); returns how many. */
static int ids_in(const char *dir, int *ids, int max)
{
	DIR *d = opendir(dir);
	int k = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.' && k < max)
			ids[k++] = atoi(e->d_name);
	closedir(d);
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			int t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	return k;
}

int main(void)
{
	char buf[512], want[512], path[128];
	pid_t me = getpid();

	/* the main thread's own directory */
	snprintf(want, sizeof(want), "Pid:\t%d\n", me);
	check(strstr(text("/proc/thread-self/status", buf, sizeof(buf)), want) != NULL,
	      "/proc/thread-self/status of the main thread: Pid is the pid");
	check(strcmp(text("/proc/thread-self/cgroup", buf, sizeof(buf)), "0::/posix_threadself\n") == 0,
	      "/proc/thread-self/cgroup: our cgroup");

	/* two threaded cgroups: the process in a, its second thread moved to b */
	check(mkdir(CG "/a", 0755) == 0 && mkdir(CG "/b", 0755) == 0, "mkdir a and b");
	check(put(CG "/a/cgroup.type", "threaded") == 0 && put(CG "/b/cgroup.type", "threaded") == 0,
	      "a and b threaded");
	snprintf(buf, sizeof(buf), "%d", me);
	check(put(CG "/a/cgroup.procs", buf) == 0, "the process into a");

	pthread_t t;
	pthread_barrier_init(&moved, NULL, 2);
	pthread_barrier_init(&seen, NULL, 2);
	check(pthread_create(&t, NULL, worker, NULL) == 0, "a second thread");
	pthread_barrier_wait(&moved);

	snprintf(want, sizeof(want), "Tgid:\t%d\nPid:\t%d\n", me, thread_tid);
	check(thread_tid != me && strstr(thread_status, want) != NULL,
	      "the thread's /proc/thread-self/status: Tgid the pid, Pid its tid");
	snprintf(want, sizeof(want), "%d (", thread_tid);
	check(strncmp(thread_stat, want, strlen(want)) == 0, "its stat begins with its tid");
	check(thread_moved, "the thread moves itself to b (cgroup.threads)");
	check(strcmp(thread_cgroup, "0::/posix_threadself/b\n") == 0, "its /proc/thread-self/cgroup: b");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", me, thread_tid);
	check(strcmp(text(path, buf, sizeof(buf)), "0::/posix_threadself/b\n") == 0,
	      "/proc/PID/task/TID/cgroup: b");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", me, me);
	check(strcmp(text(path, buf, sizeof(buf)), "0::/posix_threadself/a\n") == 0,
	      "/proc/PID/task/PID/cgroup (the main thread): a");
	check(strcmp(text("/proc/self/cgroup", buf, sizeof(buf)), "0::/posix_threadself/a\n") == 0,
	      "/proc/self/cgroup (the process, its main thread's): a");

	int ids[8];
	int k = ids_in("/proc/self/task", ids, 8);
	check(k == 2 && ids[0] == me && ids[1] == thread_tid, "/proc/self/task lists the two threads");
	snprintf(path, sizeof(path), "/proc/%d/task/%d", me, thread_tid);
	k = ids_in(path, ids, 8);
	DIR *d = opendir(path);
	int names = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		names += !strcmp(e->d_name, "cgroup") + !strcmp(e->d_name, "comm") + !strcmp(e->d_name, "stat") +
			 !strcmp(e->d_name, "status");
	if (d)
		closedir(d);
	check(names == 4, "a thread's directory: cgroup, comm, stat, status");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", me, thread_tid);
	check(strstr(text(path, buf, sizeof(buf)), "threadself") == buf, "its comm: the program's name");
	struct stat a, b;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", me, me);
	check(stat(path, &a) == 0 && stat("/proc/self/stat", &b) == 0 && a.st_ino != b.st_ino && S_ISREG(a.st_mode),
	      "task/PID/stat is a file of its own (another inode than /proc/PID/stat)");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/..", me, thread_tid);
	check(stat(path, &a) == 0 && S_ISDIR(a.st_mode), "task/TID/.. is the task directory");

	/* errors */
	snprintf(path, sizeof(path), "/proc/%d/task/1", me);
	check(open(path, O_RDONLY) < 0 && errno == ENOENT, "task/TID of another process's thread: ENOENT");
	snprintf(path, sizeof(path), "/proc/%d/task/0", me);
	check(open(path, O_RDONLY) < 0 && errno == ENOENT, "task/0: ENOENT");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/oom_score", me, me);
	check(open(path, O_RDONLY) < 0 && errno == ENOENT, "a process file not in a thread's directory: ENOENT");
	struct k_procinfo pi;
	check(sys_thread_info(thread_tid, &pi) == 0 && pi.pid == me && pi.tid == thread_tid &&
	      strcmp(pi.cgroup, "/posix_threadself/b") == 0, "thread_info: its process, tid and cgroup");
	check(sys_thread_info(thread_tid, (struct k_procinfo *)8) == -EFAULT, "thread_info to a bad pointer: EFAULT");
	check(sys_thread_info(0x3fffff, &pi) == -ESRCH, "thread_info of no thread: ESRCH");
	int32_t tids[4];
	check(sys_proc_tids(me, tids, 4) == 2, "proc_tids: two");
	check(sys_proc_tids(me, tids, 1) == 2 && tids[0] > 0, "proc_tids with room for one: still says two");
	check(sys_proc_tids(me, (int32_t *)8, 4) == -EFAULT, "proc_tids to a bad pointer: EFAULT");
	check(sys_proc_tids(0x3fffff, tids, 4) == -ESRCH, "proc_tids of no process: ESRCH");

	pthread_barrier_wait(&seen);
	pthread_join(t, NULL);
	snprintf(path, sizeof(path), "/proc/%d/task/%d", me, thread_tid);
	check(access(path, F_OK) < 0 && errno == ENOENT, "an ended thread's directory: ENOENT");
	snprintf(buf, sizeof(buf), "%d", me);
	check(put(CG "/cgroup.procs", buf) == 0 && rmdir(CG "/a") == 0 && rmdir(CG "/b") == 0,
	      "back to our cgroup; a and b removed");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
