/* Process start-up for C-library programs. */
#include <stdlib.h>
#include "arbor_sys.h"
#include "newlib_lock.h"
#include "ufault.h"

extern char **environ;
int main(int argc, char **argv, char **envp);
void __libc_init_array(void);
void __libc_fini_array(void);
void __libc_start(long *sp);

/* The initial stack pointer (glibc's name): pthread_getattr_np finds the
 * main thread's stack from it. */
void *__libc_stack_end;

/* Links newlib_lock.c's locks in before newlib's empty ones (libc.a's lock.o)
 * can be: the linker takes the first definition it meets. */
void (*const __libc_lock_ref)(_LOCK_T) __attribute__((used)) = __retarget_lock_acquire_recursive;

/* newlib's init/fini arrays run these; static programs have nothing. */
void _init(void) {}
void _fini(void) {}

void __libc_start(long *sp)
{
	__libc_stack_end = sp;
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	environ = argv + argc + 1;
	__arbor_ufault_init(); /* before any code may read a bad pointer */
	atexit(__libc_fini_array);
	__libc_init_array();
	exit(main(argc, argv, environ));
}

void _exit(int code)
{
	for (;;)
		sys_exit(code);
}
