/* ptrace (kernel/proc/ptrace.c): a tracer process observes and controls
 * tracee threads, as Linux's ptrace(2). A tracee stops (a ptrace-stop) at
 * each signal it is about to act on, at a stop signal's group stop, at an
 * INTERRUPT's trap and (PTRACE_SYSCALL) at system-call entry and exit;
 * each stop is reported to the tracer's waitpid/waitid, and the tracer
 * resumes it with CONT, SYSCALL or DETACH. State lives in struct thread
 * (ptracer, ptrace_*) and the tracer's struct proc (ptraced,
 * ptrace_deaths), under proc_lock. docs/ptrace.md tells the whole. */
#ifndef ARBOR_PTRACE_H
#define ARBOR_PTRACE_H

#include "types.h"

struct proc;
struct thread;
struct trap_frame;
struct k_siginfo;

/* Signal-delivery-stop: traced thread t (the caller, on its way to user
 * mode, no lock held) took pending signal sig with *info. It stops for its
 * tracer, whose resumption says which signal to act on instead: returned,
 * 0 for none (*info then describes it). A tracer gone meanwhile: sig. */
int ptrace_signal_stop(struct thread *t, int sig, struct k_siginfo *info);
/* Group-stop of traced t (a stop signal's default action stopped its
 * process): reported to the tracer (with PTRACE_EVENT_STOP if seized);
 * returns once the tracer resumes it (the process may still be stopped:
 * a traced thread runs on, as Linux's). */
void ptrace_group_stop(struct thread *t, int sig);
/* An INTERRUPT's trap is pending for t (the caller): PTRACE_EVENT_STOP. */
void ptrace_trap_stop(struct thread *t);
/* The system call of the current thread while t->systrace is set (asm,
 * syscall.S, with the frame): the syscall-enter-stop, the call with the
 * registers as the tracer left them (an orig_rax that names no call
 * skips it with -ENOSYS) and the syscall-exit-stop owed. Its result. */
long ptrace_syscall(struct trap_frame *tf);
/* On the way to user mode: the syscall-exit-stop owed (t->ptrace_sysexit). */
void ptrace_syscall_exit(struct thread *t);
/* t (the caller) completed an execve: a traced thread gets SIGTRAP, or
 * with PTRACE_O_TRACEEXEC (or seized) a PTRACE_EVENT_EXEC stop (Linux). */
void ptrace_exec(struct thread *t);
/* Thread t ends with wait status status (proc_lock held): its tracer
 * learns it (a tracer that is not the parent of t's process, or t not
 * its main thread, through a record its wait collects). */
void ptrace_thread_exit_locked(struct thread *t, int status);
/* Process p ends (proc_lock held): its tracees are detached and resumed
 * (killed with PTRACE_O_EXITKILL); its uncollected records are freed. */
void ptrace_tracer_exit_locked(struct proc *p);
/* Waiting process p's tracees' news (proc_lock held): tracee pid (-1:
 * any) stopped or died. Returns the tid with *status (Linux's encoding),
 * consumed unless nowait; 0 if none has news. *any is set if p traces
 * some matching thread (or holds a matching record). */
int ptrace_wait_locked(struct proc *p, int pid, bool nowait, int *status, bool *any);
/* Is process c's main thread traced by p? Then p's wait reports c's stops
 * through the ptrace path only, as Linux. proc_lock held. */
bool ptrace_child_traced_by(struct proc *c, const struct proc *p);
/* Does p have a traced thread? Its ignored signals are then not thrown
 * away at sending: the tracer sees them (Linux). proc_lock held. */
bool ptrace_proc_traced(const struct proc *p);

#endif
