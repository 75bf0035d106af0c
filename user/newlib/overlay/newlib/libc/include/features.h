/* Arbor: <features.h>, which glibc has and programs written for Linux
   include directly (to test feature macros before other headers).  In
   newlib the same work is <sys/features.h>'s: the _POSIX_C_SOURCE,
   _XOPEN_SOURCE, _GNU_SOURCE and _DEFAULT_SOURCE selection and the POSIX
   options the library provides.  It does not define __GLIBC__: this is
   not glibc.  */
#ifndef _FEATURES_H
#define _FEATURES_H

#include <sys/features.h>

#endif /* _FEATURES_H */
