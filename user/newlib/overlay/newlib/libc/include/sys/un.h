/* Arbor overlay: <sys/un.h>, which newlib 3.3.0 lacks: Linux's struct
   sockaddr_un for Unix-domain sockets (docs/sockets.md).  */
#ifndef _SYS_UN_H_
#define _SYS_UN_H_

#include <sys/socket.h>

struct sockaddr_un {
	sa_family_t sun_family;
	char sun_path[108];
};

#define SUN_LEN(ptr) (__builtin_offsetof(struct sockaddr_un, sun_path) + __builtin_strlen((ptr)->sun_path))

#endif
