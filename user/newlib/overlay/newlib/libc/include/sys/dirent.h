/* Arbor overlay: replaces newlib 3.3.0's <sys/dirent.h>, which was only
   '#error "<dirent.h> not supported"'.  newlib's <dirent.h> includes this
   file for DIR and struct dirent and then declares opendir & co.
   struct dirent has the Linux x86_64 layout (the same as a getdents64
   record): d_ino at 0, d_off at 8, d_reclen at 16, d_type at 18, d_name at
   19; 280 bytes.  DIR is opaque: the Arbor port defines struct __dirstream
   privately.  */

#ifndef _SYS_DIRENT_H
#define _SYS_DIRENT_H

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __dirstream DIR;

struct dirent {
	ino_t		d_ino;		/* inode number */
	off_t		d_off;		/* opaque position of the next entry */
	unsigned short	d_reclen;	/* length of this record */
	unsigned char	d_type;		/* file type, DT_*; DT_UNKNOWN if unknown */
	char		d_name[256];	/* NUL-terminated file name */
};

#define	_DIRENT_HAVE_D_OFF	1
#define	_DIRENT_HAVE_D_RECLEN	1
#define	_DIRENT_HAVE_D_TYPE	1

#if __BSD_VISIBLE || __GNU_VISIBLE || __XSI_VISIBLE >= 700
/* Values of d_type: the S_IFMT bits of the mode, shifted right by 12.  */
#define	DT_UNKNOWN	0
#define	DT_FIFO		1
#define	DT_CHR		2
#define	DT_DIR		4
#define	DT_BLK		6
#define	DT_REG		8
#define	DT_LNK		10
#define	DT_SOCK		12
#define	DT_WHT		14

#define	IFTODT(mode)	(((mode) & 0170000) >> 12)
#define	DTTOIF(dirtype)	((dirtype) << 12)
#endif

/* Longest file name a directory entry holds (d_name minus the NUL).
   Defined here so that <dirent.h> does not use its BSD value of 1024.  */
#if __BSD_VISIBLE || __GNU_VISIBLE
#define	MAXNAMLEN	255
#endif

#if __GNU_VISIBLE
/* Linux's getdents64 (as glibc declares it with _GNU_SOURCE): records of
   struct dirent's layout, each d_reclen bytes (a multiple of 8, the name
   only as long as it needs), as many as fit buf; the descriptor's offset
   is a position cookie (d_off, lseek SEEK_SET).  */
ssize_t	getdents64(int __fd, void *__buf, size_t __len);
#endif

#ifdef __cplusplus
}
#endif

#endif /* _SYS_DIRENT_H */
