/* The C library's fault-safe accesses to a caller's memory (ufault.c):
 * each returns -EFAULT where the memory cannot be accessed so, instead of
 * the program's dying of SIGSEGV. */
#ifndef ARBOR_LIBC_UFAULT_H
#define ARBOR_LIBC_UFAULT_H

#include <stddef.h>

/* The length of string s, or max if no NUL comes within max bytes, or
 * -EFAULT. */
long __arbor_ustrnlen(const char *s, size_t max);
/* Copies n bytes from src to dst (either may be the caller's): 0 or
 * -EFAULT (part may have been copied). */
long __arbor_ucopy(void *dst, const void *src, size_t n);
/* 0 if [p, p+n) can be read now (every page touched once), else -EFAULT. */
long __arbor_uread(const void *p, size_t n);
/* 0 if [p, p+n) can be written now, else -EFAULT; the bytes keep their
 * values. */
long __arbor_uwrite(void *p, size_t n);
struct pcache_attr;
struct stat;
/* Fills the caller's *st (Linux's layout) from the page cache's
 * attributes a, st_blksize 4096: 0, or -EFAULT (st not writable). */
long __arbor_stat_from_attr(const struct pcache_attr *a, struct stat *st);
/* Registers the routines above with the kernel: at start-up (and in a
 * program that replaced it, after execve the new image's start-up). */
void __arbor_ufault_init(void);

#endif
