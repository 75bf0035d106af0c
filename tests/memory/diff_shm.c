/* Differential test: POSIX shared memory objects (shm_open, shm_unlink,
 * over the tmpfs at /dev/shm), named semaphores (sem_open, sem_close,
 * sem_unlink: O_CREAT|O_EXCL, the same address for a second open, shared
 * with a child process), and memory locking (mlock, munlock, mlockall,
 * munlockall: errors and that locked memory reads back), and a shared
 * memory object mapped until the address space holds no more areas
 * (ENOMEM at vm.max_map_count, 65530, quickly: the posix suite's
 * mmap/24-1), then unmapped in part and mapped again. Prints results and
 * errno names, byte for byte as Linux. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case EAGAIN: return "EAGAIN";
	case EACCES: return "EACCES";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return "other";
	}
}

#define SHOWE(what, call) printf("%s: %s\n", what, (call) == 0 ? "0" : en(errno))

/* A lock that may meet RLIMIT_MEMLOCK: an unprivileged process (CI's
 * host may run the test as one) gets ENOMEM past it, so either is right
 * when the limit is finite; any other error is shown. */
static void showlock(const char *what, int r)
{
	struct rlimit rl;
	int limited = getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
	if (r == 0 || (limited && (errno == ENOMEM || errno == EPERM)))
		printf("%s: 0 or ENOMEM past RLIMIT_MEMLOCK\n", what);
	else
		printf("%s: %s\n", what, en(errno));
}

/* Maps one shared memory object again and again until mmap fails: ENOMEM
 * once the address space has vm.max_map_count (65530) areas, the other
 * areas the program has included, so the count is printed as a bound.
 * Then a few go and come back (a search must see the holes), and all go. */
static void map_until_enomem(void)
{
	static void *maps[70000];
	int fd = shm_open("/arbor_diff_many", O_RDWR | O_CREAT | O_EXCL, 0600);
	shm_unlink("/arbor_diff_many");
	ftruncate(fd, 1024);
	int n = 0, e = 0;
	while (n < 70000) {
		void *p = mmap(NULL, 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			e = errno;
			break;
		}
		maps[n++] = p;
	}
	printf("mapped until %s, between 65000 and 65530 mappings: %d\n", en(e), n >= 65000 && n <= 65530);
	for (int i = 1000; i < 1010; i++)
		munmap(maps[i], 1024);
	int again = 0;
	e = 0;
	for (int i = 0; i < 11; i++) {
		void *p = mmap(NULL, 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			e = errno;
			break;
		}
		again++;
		maps[1000 + i] = p;
	}
	printf("10 unmapped, then mapped again: %d, the 11th: %s\n", again, en(e));
	((char *)maps[1005])[0] = 7;
	printf("the object reads back through another mapping: %d\n", ((char *)maps[0])[0] == 7);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += munmap(maps[i], 1024) != 0;
	printf("all unmapped: %d\n", bad == 0);
	void *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("then a 1 MiB mapping: %s\n", p != MAP_FAILED ? "ok" : en(errno));
	close(fd);
}

int main(void)
{
	/* shm_open */
	shm_unlink("/arbor_diff_shm");
	int fd = shm_open("/arbor_diff_shm", O_RDWR | O_CREAT | O_EXCL, 0600);
	printf("shm_open O_CREAT|O_EXCL: %s\n", fd >= 0 ? "fd" : en(errno));
	int fd2 = shm_open("/arbor_diff_shm", O_RDWR | O_CREAT | O_EXCL, 0600);
	printf("again with O_EXCL: %s\n", fd2 >= 0 ? "fd" : en(errno));
	printf("without O_CREAT, missing: %s\n",
	       shm_open("/arbor_diff_nothere", O_RDWR, 0) >= 0 ? "fd" : en(errno));
	printf("empty name: %s\n", shm_open("/", O_RDWR | O_CREAT, 0600) >= 0 ? "fd" : en(errno));
	printf("slash inside: %s\n", shm_open("/a/b", O_RDWR | O_CREAT, 0600) >= 0 ? "fd" : en(errno));
	SHOWE("ftruncate 8192", ftruncate(fd, 8192));
	struct stat st;
	fstat(fd, &st);
	printf("size %ld, mode %o\n", (long)st.st_size, (unsigned)(st.st_mode & 0777));
	int *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("mmap: %s\n", p != MAP_FAILED ? "ok" : en(errno));
	p[0] = 77; /* before the fork: the child maps the object anew and must see it */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int cfd = shm_open("arbor_diff_shm", O_RDWR, 0); /* no leading slash: the same */
		int *q = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		q[1000] = 4242;
		_exit(q[0] == 77 ? 0 : 1);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("the child saw the parent's write: %d; the parent sees the child's: %d\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0, p[1000] == 4242);
	munmap(p, 8192);
	close(fd);
	SHOWE("shm_unlink", shm_unlink("/arbor_diff_shm"));
	SHOWE("shm_unlink again", shm_unlink("/arbor_diff_shm"));

	/* named semaphores */
	sem_unlink("/arbor_diff_sem");
	sem_t *s = sem_open("/arbor_diff_sem", O_CREAT | O_EXCL, 0600, 2);
	printf("sem_open O_CREAT|O_EXCL: %s\n", s != SEM_FAILED ? "sem" : en(errno));
	sem_t *s2 = sem_open("/arbor_diff_sem", O_CREAT | O_EXCL, 0600, 2);
	printf("again with O_EXCL: %s\n", s2 != SEM_FAILED ? "sem" : en(errno));
	s2 = sem_open("/arbor_diff_sem", 0);
	printf("opened again: the same address: %d\n", s2 == s);
	printf("missing without O_CREAT: %s\n",
	       sem_open("/arbor_diff_nosem", 0) != SEM_FAILED ? "sem" : en(errno));
	printf("value over SEM_VALUE_MAX: %s\n",
	       sem_open("/arbor_diff_big", O_CREAT, 0600, (unsigned)SEM_VALUE_MAX + 1) != SEM_FAILED ? "sem"
														 : en(errno));
	int v = -1;
	sem_getvalue(s, &v);
	printf("value: %d\n", v);
	SHOWE("sem_trywait", sem_trywait(s));
	SHOWE("sem_trywait", sem_trywait(s));
	SHOWE("sem_trywait at 0", sem_trywait(s));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		sem_t *c = sem_open("/arbor_diff_sem", 0);
		usleep(20000);
		sem_post(c);
		sem_close(c);
		_exit(0);
	}
	SHOWE("sem_wait (posted by a child through its own sem_open)", sem_wait(s));
	waitpid(pid, NULL, 0);
	SHOWE("sem_close", sem_close(s));
	SHOWE("sem_close of the second open", sem_close(s2));
	SHOWE("sem_unlink", sem_unlink("/arbor_diff_sem"));
	SHOWE("sem_unlink again", sem_unlink("/arbor_diff_sem"));

	/* memory locking */
	char *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rlimit rl;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) { /* as much as this process may */
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_MEMLOCK, &rl);
	}
	showlock("mlock 64 KiB", mlock(m, 65536));
	printf("locked memory reads zero: %d\n", m[0] == 0 && m[65535] == 0);
	m[100] = 5;
	showlock("mlock of an unaligned range", mlock(m + 100, 10));
	SHOWE("munlock", munlock(m, 65536));
	munmap(m + 32768, 32768);
	SHOWE("mlock over a hole", mlock(m, 65536));
	SHOWE("munlock over a hole", munlock(m, 65536));
	SHOWE("mlock of 0 bytes", mlock(m, 0));
	SHOWE("mlockall 0", mlockall(0));
	SHOWE("mlockall 64", mlockall(64));
	showlock("mlockall MCL_CURRENT", mlockall(MCL_CURRENT));
	showlock("mlockall MCL_CURRENT|MCL_FUTURE", mlockall(MCL_CURRENT | MCL_FUTURE));
	char *later = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("a later mapping: %s, reads zero: %d\n", later != MAP_FAILED ? "ok" : en(errno), later[4096] == 0);
	SHOWE("munlockall", munlockall());
	map_until_enomem();
	return 0;
}
