/* <arpa/inet.h>: converting Internet addresses between text and binary
 * (user/libc/inet.c), as glibc does. */
#ifndef _ARPA_INET_H
#define _ARPA_INET_H

#include <netinet/in.h>

int inet_pton(int af, const char *__restrict src, void *__restrict dst);
const char *inet_ntop(int af, const void *__restrict src, char *__restrict dst, socklen_t size);
int inet_aton(const char *cp, struct in_addr *inp);
in_addr_t inet_addr(const char *cp);
char *inet_ntoa(struct in_addr in);

#endif
