/* Arbor overlay: <sys/utsname.h>, which newlib 3.3.0 lacks.  Written for
   Arbor from POSIX; the layout is Linux's (six 65-byte fields, 390 bytes),
   so the kernel's uname() can fill it directly.  */
#ifndef _SYS_UTSNAME_H_
#define _SYS_UTSNAME_H_

#include <sys/cdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	_UTSNAME_LENGTH	65

struct utsname {
	char	sysname[_UTSNAME_LENGTH];	/* name of this implementation */
	char	nodename[_UTSNAME_LENGTH];	/* name of this node */
	char	release[_UTSNAME_LENGTH];	/* release level */
	char	version[_UTSNAME_LENGTH];	/* version level */
	char	machine[_UTSNAME_LENGTH];	/* hardware type */
#if __GNU_VISIBLE
	char	domainname[_UTSNAME_LENGTH];	/* NIS domain name */
#else
	char	__domainname[_UTSNAME_LENGTH];
#endif
};

int	uname (struct utsname *);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_UTSNAME_H_ */
