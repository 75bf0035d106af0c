/* Lab 02's grader: the pids controller's pids.peak (cgroup/controllers/pids.c).
 *
 * exists: /sys/fs/cgroup/lab02/pids.peak is there, mode 0444.
 * not_on_root: the root has none (ENOENT), as pids.current.
 * starts_at_current: a new cgroup that the grader then enters reads 1.
 * tracks_forks: after 5 children that wait, 6; after they are reaped,
 *   pids.current is 1 and pids.peak still 6.
 * hierarchical: a child cgroup's forks raise its parent's peak.
 * read_only: a write fails with the errno a write of pids.current gets. */
#include "../grade.h"
#include <signal.h>
#include <sys/wait.h>

#define CG "/sys/fs/cgroup/lab02"

static long read_num(const char *path)
{
	char buf[64];
	if (grade_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Forks n children that sleep until killed, their pids in pids[]. */
static void fork_sleepers(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			pause();
			_exit(0);
		}
	}
}

static void reap(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

static void enter(const char *cg)
{
	char path[128], pid[32];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	grade_write(path, pid);
}

int main(void)
{
	struct stat st;
	rmdir(CG "/sub");
	rmdir(CG);
	grade_write("/sys/fs/cgroup/cgroup.subtree_control", "+pids");
	if (mkdir(CG, 0755) < 0)
		printf("# mkdir " CG ": %s\n", strerror(errno));
	int there = stat(CG "/pids.peak", &st) == 0;
	grade_check("exists", there && (st.st_mode & 0777) == 0444, there ? "mode %o" : "stat: %s",
		    there ? (unsigned)(st.st_mode & 0777) : 0u, strerror(errno));
	int root = stat("/sys/fs/cgroup/pids.peak", &st) < 0 ? errno : 0;
	grade_check("not_on_root", root == ENOENT, "stat of the root's: %s", root ? strerror(root) : "exists");

	enter(CG);
	long peak = read_num(CG "/pids.peak");
	grade_check("starts_at_current", peak == 1, "pids.peak %ld after entering (want 1)", peak);

	pid_t kids[5];
	fork_sleepers(kids, 5);
	long during = read_num(CG "/pids.peak");
	reap(kids, 5);
	long after = read_num(CG "/pids.peak"), cur = read_num(CG "/pids.current");
	grade_check("tracks_forks", during == 6 && after == 6 && cur == 1,
		    "with 5 children: %ld (want 6); reaped: pids.peak %ld (want 6), pids.current %ld (want 1)", during,
		    after, cur);

	/* the grader moves to lab02/sub and forks 9 there: the parent's peak is 10 */
	enter("/sys/fs/cgroup"); /* (no process in lab02 while it passes pids on) */
	grade_write(CG "/cgroup.subtree_control", "+pids");
	mkdir(CG "/sub", 0755);
	enter(CG "/sub");
	pid_t more[9];
	fork_sleepers(more, 9);
	long top = read_num(CG "/pids.peak"), sub = read_num(CG "/sub/pids.peak");
	reap(more, 9);
	grade_check("hierarchical", top == 10 && sub == 10, "lab02: %ld (want 10), lab02/sub: %ld (want 10)", top,
		    sub);

	int e_peak = -grade_write(CG "/pids.peak", "0");
	int e_cur = -grade_write(CG "/pids.current", "0");
	grade_check("read_only", there && e_peak == e_cur && e_cur != 0, "write of pids.peak: %s (pids.current: %s)",
		    strerror(e_peak), strerror(e_cur));
	enter("/sys/fs/cgroup");
	rmdir(CG "/sub");
	rmdir(CG);
	return 0;
}
