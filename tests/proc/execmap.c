/* execve from the page cache (docs/memory.md "Programs from the page
 * cache"): the kernel maps a program file's segments from its object, so
 * two running copies of a program with 1 MiB of read-only data
 * (/posix/bigtext) share those frames (the second copy adds far less than
 * 1 MiB to memory.current), its data is private and copy-on-write and its
 * bss zero; and Linux's rule for a running program's file: open for
 * writing, O_TRUNC and truncate are ETXTBSY while it runs (from any of its
 * processes, forks included), and a file open for writing or mapped
 * shared and writable cannot be executed (ETXTBSY); unlinking it leaves
 * the running copy whole. Prints TAP. */
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_execmap"
#define PROG "/posix/bigtext"
#define COPY "/tmp/execmap.bt"
#define KIB 1024L

struct run {
	pid_t pid;
	int to, from;		/* its stdin and stdout */
};

/* Starts prog (argument arg, or none) in cgroup directory cg (NULL: ours)
 * with pipes for stdin and stdout: 1 once it said "ready", 0 if it did
 * not (its exit status is then what waiting for it gives). */
static int start(struct run *r, const char *prog, const char *arg, const char *cg)
{
	int in[2], out[2];
	if (pipe(in) || pipe(out))
		return 0;
	/* our ends stay ours: a copy started later must not hold this one's
	 * stdin open */
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	r->pid = fork();
	if (r->pid == 0) {
		char procs[160];
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg ? cg : "");
		if (cg && put(procs, "0"))
			_exit(90);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl(prog, "bigtext", arg, (char *)NULL);
		_exit(errno == ETXTBSY ? 91 : 92);
	}
	close(in[0]);
	close(out[1]);
	r->to = in[1];
	r->from = out[0];
	char buf[8];
	return read(r->from, buf, 6) == 6 && !memcmp(buf, "ready\n", 6);
}

/* Ends it (end-of-file on its stdin): its exit status, -1 if it hangs. */
static int finish(struct run *r)
{
	close(r->to);
	close(r->from);
	return wait_bounded(r->pid, 30);
}

static long current(const char *cg)
{
	char path[160], buf[64];
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

/* Copies file from to a new file to with mode 0755: 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	static char buf[64 * 1024];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n = 0;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in >= 0 && out >= 0 && n == 0 ? 0 : -1;
}

static void test_shared_text(void)
{
	const char *cg = BASE "/run";
	mkdir(cg, 0755);
	struct run a, b;
	long m0 = current(cg);
	int ok_a = start(&a, PROG, NULL, cg);
	long m1 = current(cg);
	int ok_b = start(&b, PROG, NULL, cg);
	long m2 = current(cg);
	printf("# memory.current: %ld empty, %ld one copy, %ld two copies\n", m0, m1, m2);
	check(ok_a && ok_b, "two copies of a program with 1 MiB of rodata run (data as the file has it, bss zero)");
	check(m2 - m1 > 0 && m2 - m1 < 512 * KIB,
	      "the second copy adds less than 512 KiB to memory.current: the rodata is the cache's frames");
	check(m1 - m0 < 512 * KIB, "the first copy too: its text is not copied into the process");
	check(finish(&a) == 0 && finish(&b) == 0, "both read the whole blob again and exit 0");
	struct run c;
	check(start(&c, PROG, NULL, cg) && finish(&c) == 0,
	      "a third copy finds the data as the file has it: the others' stores stayed private");
	check(current(cg) - m0 < 64 * KIB, "memory.current back near empty once they are gone");
	rmdir(cg);
}

static void test_etxtbsy(void)
{
	struct stat st, st2;
	check(copy_file(PROG, COPY) == 0 && stat(COPY, &st) == 0, "a copy of the program in /tmp");
	struct run r;
	check(start(&r, COPY, NULL, NULL), "the copy runs");
	check_errno(open(COPY, O_WRONLY), ETXTBSY, "open(O_WRONLY) of a running program: ETXTBSY");
	check_errno(stat(COPY, &st2) == 0 ? open(COPY, O_WRONLY) : -2, ETXTBSY,
		    "again after a stat (the kernel's name cache may answer the open): ETXTBSY");
	check_errno(open(COPY, O_RDWR), ETXTBSY, "open(O_RDWR): ETXTBSY");
	check_errno(open(COPY, O_WRONLY | O_TRUNC), ETXTBSY, "open(O_WRONLY|O_TRUNC): ETXTBSY");
	check_errno(truncate(COPY, 0), ETXTBSY, "truncate: ETXTBSY");
	check(stat(COPY, &st2) == 0 && st2.st_size == st.st_size, "and the file is whole");
	int fd = open(COPY, O_RDONLY);
	check(fd >= 0, "open(O_RDONLY) of it works");
	check(fd >= 0 && mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EACCES,
	      "a shared writable mapping needs a descriptor open for writing (EACCES)");
	close(fd);
	struct run r2;
	check(start(&r2, COPY, NULL, NULL), "a second copy runs beside it (executing is no write)");
	check(finish(&r2) == 0 && finish(&r) == 0, "both exit 0");
	fd = open(COPY, O_WRONLY);
	check(fd >= 0, "open(O_WRONLY) works once no copy runs");

	struct run w;
	check(!start(&w, COPY, NULL, NULL) && wait_bounded(w.pid, 10) == 91,
	      "execve of a file open for writing: ETXTBSY");
	close(w.to);
	close(w.from);
	close(fd);
	check(start(&w, COPY, NULL, NULL) && finish(&w) == 0, "after its close, the program runs");

	fd = open(COPY, O_RDWR);
	void *m = fd >= 0 ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	check(m != MAP_FAILED && !start(&w, COPY, NULL, NULL) && wait_bounded(w.pid, 10) == 91,
	      "execve of a file mapped shared by a descriptor open for writing (closed since): ETXTBSY");
	close(w.to);
	close(w.from);
	munmap(m, 4096);
	check(start(&w, COPY, NULL, NULL) && finish(&w) == 0, "after its munmap, the program runs");

	/* the exec count follows fork: the parent of the fork exits at once */
	struct run f;
	int in[2];
	check(start(&f, COPY, "fork", NULL), "a copy that forks and exits, its child running on");
	check(wait_bounded(f.pid, 10) == 0, "the parent of the fork exited");
	check_errno(open(COPY, O_WRONLY), ETXTBSY, "its forked child keeps the program busy: ETXTBSY");
	in[0] = f.to; /* the child holds the other ends */
	close(in[0]);
	close(f.from);
	int freed = 0;
	for (int i = 0; i < 2500 && !freed; i++) {
		int t = open(COPY, O_WRONLY);
		freed = t >= 0;
		if (t >= 0)
			close(t);
		else
			usleep(2000);
	}
	check(freed, "writable again once the forked child exits");

	check(start(&r, COPY, NULL, NULL), "the copy runs once more");
	check(unlink(COPY) == 0, "unlink of a running program works");
	check(finish(&r) == 0, "and the running copy reads its whole blob and exits 0");
}

int main(void)
{
	mkdir(BASE "/leaf", 0755);
	check(put(BASE "/leaf/cgroup.procs", "0") == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0, "+memory at the root and here");
	test_shared_text();
	test_etxtbsy();
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
