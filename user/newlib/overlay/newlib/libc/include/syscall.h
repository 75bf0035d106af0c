/* Arbor overlay: <syscall.h>, as glibc's: <sys/syscall.h>.  */
#include <sys/syscall.h>
