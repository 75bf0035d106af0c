/* Internet addresses in the C library (<arpa/inet.h>, <netdb.h>): text
 * to binary and back as glibc does it, and getaddrinfo for what needs no
 * resolver. Arbor has no IP networking yet (docs/sockets.md): these let
 * programs that name addresses build and behave as on a machine without
 * a network; socket(AF_INET or AF_INET6, ...) is EAFNOSUPPORT. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct in6_addr in6addr_any = IN6ADDR_ANY_INIT;
const struct in6_addr in6addr_loopback = IN6ADDR_LOOPBACK_INIT;

/* Dotted-quad only, each part 0..255 in decimal without a leading zero
 * (glibc's inet_pton4): 1, else 0. */
static int inet_pton4(const char *s, uint8_t out[4])
{
	uint8_t a[4];
	int parts = 0;
	while (parts < 4) {
		if (*s < '0' || *s > '9')
			return 0;
		unsigned v = 0;
		const char *start = s;
		while (*s >= '0' && *s <= '9') {
			if (s > start && *start == '0')
				return 0; /* a leading zero */
			v = v * 10 + (unsigned)(*s++ - '0');
			if (v > 255)
				return 0;
		}
		a[parts++] = (uint8_t)v;
		if (parts < 4 && *s++ != '.')
			return 0;
	}
	if (*s)
		return 0;
	memcpy(out, a, 4);
	return 1;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* RFC 4291 text: groups of 1-4 hex digits, one "::" for a run of zero
 * groups, an IPv4 dotted quad in the last 32 bits: 1, else 0. */
static int inet_pton6(const char *s, uint8_t out[16])
{
	uint8_t a[16] = { 0 };
	int n = 0, gap = -1;
	if (s[0] == ':' && s[1] != ':')
		return 0;
	if (s[0] == ':') {
		gap = 0;
		s += 2;
		if (!*s)
			goto done;
	}
	for (;;) {
		const char *g = s;
		unsigned v = 0;
		int digits = 0;
		while (hexval(*s) >= 0 && digits < 5) {
			v = v * 16 + (unsigned)hexval(*s++);
			digits++;
		}
		if (*s == '.' && n <= 12) { /* the IPv4 tail */
			if (!inet_pton4(g, a + n))
				return 0;
			n += 4;
			break;
		}
		if (!digits || digits > 4 || n > 14)
			return 0;
		a[n++] = (uint8_t)(v >> 8);
		a[n++] = (uint8_t)v;
		if (!*s)
			break;
		if (*s++ != ':')
			return 0;
		if (*s == ':') {
			if (gap >= 0)
				return 0; /* two "::" */
			gap = n;
			s++;
			if (!*s)
				break;
		}
	}
done:
	if (gap >= 0) {
		if (n == 16)
			return 0;
		memmove(a + 16 - (n - gap), a + gap, (size_t)(n - gap));
		memset(a + gap, 0, (size_t)(16 - n));
	} else if (n != 16) {
		return 0;
	}
	memcpy(out, a, 16);
	return 1;
}

int inet_pton(int af, const char *restrict src, void *restrict dst)
{
	if (af == AF_INET)
		return inet_pton4(src, dst);
	if (af == AF_INET6)
		return inet_pton6(src, dst);
	errno = EAFNOSUPPORT;
	return -1;
}

static const char *inet_ntop4(const uint8_t *a, char *dst, socklen_t size)
{
	char b[INET_ADDRSTRLEN];
	int n = snprintf(b, sizeof(b), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	if (n < 0 || (socklen_t)n >= size) {
		errno = ENOSPC;
		return NULL;
	}
	memcpy(dst, b, (size_t)n + 1);
	return dst;
}

/* The longest run of two or more zero groups becomes "::" (the first of
 * equal ones); an IPv4-compatible or -mapped address ends in a dotted
 * quad (glibc's inet_ntop6). */
static const char *inet_ntop6(const uint8_t *a, char *dst, socklen_t size)
{
	uint16_t w[8];
	for (int i = 0; i < 8; i++)
		w[i] = (uint16_t)(a[2 * i] << 8 | a[2 * i + 1]);
	int best = -1, blen = 0;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && w[j] == 0)
			j++;
		if (j - i > blen && j - i >= 2) {
			best = i;
			blen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	char b[INET6_ADDRSTRLEN], *p = b;
	for (int i = 0; i < 8; i++) {
		if (best >= 0 && i >= best && i < best + blen) {
			if (i == best)
				*p++ = ':';
			continue;
		}
		if (i)
			*p++ = ':';
		if (i == 6 && best == 0 && (blen == 6 || (blen == 5 && w[5] == 0xffff))) {
			if (!inet_ntop4(a + 12, p, (socklen_t)(sizeof(b) - (size_t)(p - b))))
				return NULL;
			p += strlen(p);
			break;
		}
		p += sprintf(p, "%x", w[i]);
	}
	if (best >= 0 && best + blen == 8)
		*p++ = ':';
	*p = 0;
	if ((socklen_t)(p - b) >= size) {
		errno = ENOSPC;
		return NULL;
	}
	memcpy(dst, b, (size_t)(p - b) + 1);
	return dst;
}

const char *inet_ntop(int af, const void *restrict src, char *restrict dst, socklen_t size)
{
	if (af == AF_INET)
		return inet_ntop4(src, dst, size);
	if (af == AF_INET6)
		return inet_ntop6(src, dst, size);
	errno = EAFNOSUPPORT;
	return NULL;
}

/* The classic forms: a.b.c.d, a.b.c (c 16 bits), a.b (b 24 bits), a (32
 * bits), each part decimal, octal (0...) or hex (0x...): 1, else 0. */
int inet_aton(const char *cp, struct in_addr *inp)
{
	uint32_t part[4];
	int n = 0;
	const char *s = cp;
	for (;;) {
		if (*s < '0' || *s > '9')
			return 0;
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 0);
		if (errno || v > 0xffffffffUL)
			return 0;
		part[n++] = (uint32_t)v;
		s = end;
		if (*s != '.' || n == 4)
			break;
		s++;
	}
	if (*s && *s != ' ' && *s != '\t' && *s != '\n')
		return 0;
	uint32_t addr;
	switch (n) {
	case 1:
		addr = part[0];
		break;
	case 2:
		if (part[0] > 255 || part[1] > 0xffffff)
			return 0;
		addr = part[0] << 24 | part[1];
		break;
	case 3:
		if (part[0] > 255 || part[1] > 255 || part[2] > 0xffff)
			return 0;
		addr = part[0] << 24 | part[1] << 16 | part[2];
		break;
	default:
		if (part[0] > 255 || part[1] > 255 || part[2] > 255 || part[3] > 255)
			return 0;
		addr = part[0] << 24 | part[1] << 16 | part[2] << 8 | part[3];
	}
	if (inp)
		inp->s_addr = htonl(addr);
	return 1;
}

in_addr_t inet_addr(const char *cp)
{
	struct in_addr a;
	return inet_aton(cp, &a) ? a.s_addr : INADDR_NONE;
}

char *inet_ntoa(struct in_addr in)
{
	static char buf[INET_ADDRSTRLEN];
	return (char *)inet_ntop4((const uint8_t *)&in.s_addr, buf, sizeof(buf));
}

/* ---- getaddrinfo ---- */

struct gai_node {
	struct addrinfo ai;
	union {
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} sa;
};

/* One result per address and socket type (each type once, as glibc gives
 * for hints without one: stream/TCP, datagram/UDP, raw). */
static int gai_add(struct addrinfo ***tail, int family, const void *addr, uint16_t port, int socktype,
		   int protocol)
{
	static const int types[3][2] = { { SOCK_STREAM, IPPROTO_TCP }, { SOCK_DGRAM, IPPROTO_UDP }, { SOCK_RAW, 0 } };
	for (int i = 0; i < 3; i++) {
		if (socktype && types[i][0] != socktype)
			continue;
		struct gai_node *n = calloc(1, sizeof(*n));
		if (!n)
			return EAI_MEMORY;
		n->ai.ai_family = family;
		n->ai.ai_socktype = types[i][0];
		n->ai.ai_protocol = protocol ? protocol : types[i][1];
		n->ai.ai_addr = (struct sockaddr *)&n->sa;
		if (family == AF_INET) {
			n->sa.v4.sin_family = AF_INET;
			n->sa.v4.sin_port = htons(port);
			memcpy(&n->sa.v4.sin_addr, addr, 4);
			n->ai.ai_addrlen = sizeof(struct sockaddr_in);
		} else {
			n->sa.v6.sin6_family = AF_INET6;
			n->sa.v6.sin6_port = htons(port);
			memcpy(&n->sa.v6.sin6_addr, addr, 16);
			n->ai.ai_addrlen = sizeof(struct sockaddr_in6);
		}
		**tail = &n->ai;
		*tail = &n->ai.ai_next;
	}
	return 0;
}

int getaddrinfo(const char *restrict node, const char *restrict service, const struct addrinfo *restrict hints,
		struct addrinfo **restrict res)
{
	int flags = hints ? hints->ai_flags : 0, family = hints ? hints->ai_family : AF_UNSPEC;
	int socktype = hints ? hints->ai_socktype : 0, protocol = hints ? hints->ai_protocol : 0;
	if (flags & ~(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_V4MAPPED | AI_ALL | AI_ADDRCONFIG |
		      AI_NUMERICSERV))
		return EAI_BADFLAGS;
	if (!node && !service)
		return EAI_NONAME;
	if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6)
		return EAI_FAMILY;
	if (socktype != 0 && socktype != SOCK_STREAM && socktype != SOCK_DGRAM && socktype != SOCK_RAW)
		return EAI_SOCKTYPE;
	uint16_t port = 0;
	if (service) {
		char *end;
		unsigned long v = strtoul(service, &end, 10);
		if (!*service || *end || v > 65535)
			return flags & AI_NUMERICSERV ? EAI_NONAME : EAI_SERVICE; /* no services database */
		port = (uint16_t)v;
	}
	uint8_t v4[4], v6[16];
	bool has4 = false, has6 = false;
	if (!node) { /* the wildcard to bind, or loopback to connect */
		static const uint8_t any4[4] = { 0 }, lo4[4] = { 127, 0, 0, 1 };
		memcpy(v4, flags & AI_PASSIVE ? any4 : lo4, 4);
		memcpy(v6, flags & AI_PASSIVE ? &in6addr_any : &in6addr_loopback, 16);
		has4 = has6 = true;
	} else if (inet_pton4(node, v4)) {
		has4 = true;
	} else if (inet_pton6(node, v6)) {
		has6 = true;
	} else if (!(flags & AI_NUMERICHOST) && strcmp(node, "localhost") == 0) {
		static const uint8_t lo4[4] = { 127, 0, 0, 1 };
		memcpy(v4, lo4, 4);
		memcpy(v6, &in6addr_loopback, 16);
		has4 = has6 = true;
	} else {
		return EAI_NONAME; /* no resolver */
	}
	struct addrinfo *head = NULL, **tail = &head;
	int err = 0;
	if (has6 && family != AF_INET)
		err = gai_add(&tail, AF_INET6, v6, port, socktype, protocol);
	if (!err && has4 && family != AF_INET6)
		err = gai_add(&tail, AF_INET, v4, port, socktype, protocol);
	if (!err && !head)
		err = EAI_NONAME; /* an address, but not of the family asked */
	if (err) {
		freeaddrinfo(head);
		return err;
	}
	if ((flags & AI_CANONNAME) && node)
		head->ai_canonname = strdup(node);
	*res = head;
	return 0;
}

void freeaddrinfo(struct addrinfo *res)
{
	while (res) {
		struct addrinfo *next = res->ai_next;
		free(res->ai_canonname);
		free(res); /* the node holds its address */
		res = next;
	}
}

const char *gai_strerror(int errcode)
{
	switch (errcode) {
	case 0: return "Success";
	case EAI_BADFLAGS: return "Bad value for ai_flags";
	case EAI_NONAME: return "Name or service not known";
	case EAI_AGAIN: return "Temporary failure in name resolution";
	case EAI_FAIL: return "Non-recoverable failure in name resolution";
	case EAI_FAMILY: return "ai_family not supported";
	case EAI_SOCKTYPE: return "ai_socktype not supported";
	case EAI_SERVICE: return "Servname not supported for ai_socktype";
	case EAI_MEMORY: return "Memory allocation failure";
	case EAI_SYSTEM: return "System error";
	case EAI_OVERFLOW: return "Argument buffer overflow";
	default: return "Unknown error";
	}
}
