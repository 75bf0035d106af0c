/* newc cpio reader; see initrd.h for the accepted format. Every offset is
 * kept <= len and each size is compared against the room left (len - off),
 * so no sum can overflow and no byte outside [base, base + len) is read. */
#include "initrd.h"

#define NEWC_HDR_LEN   110u
#define NEWC_FIELD_LEN 8u

/* Header field indices, in archive order after the 6-byte magic. */
enum newc_field {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
	F_COUNT
};

static const char newc_magic[6] = { '0', '7', '0', '7', '0', '1' };
static const char trailer_name[] = "TRAILER!!!";

static bool bytes_equal(const uint8_t *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != (uint8_t)b[i])
			return false;
	return true;
}

static size_t cstr_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int hex_digit(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly 8 hex digits; no sign, spaces or "0x" (strtoul would allow them). */
static bool parse_hex8(const uint8_t *p, uint32_t *out)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < NEWC_FIELD_LEN; i++) {
		int d = hex_digit(p[i]);
		if (d < 0)
			return false;
		v = (v << 4) | (uint32_t)d;
	}
	*out = v;
	return true;
}

static bool parse_header(const uint8_t *h, uint32_t f[F_COUNT])
{
	if (!bytes_equal(h, newc_magic, sizeof(newc_magic)))
		return false;
	for (unsigned i = 0; i < F_COUNT; i++)
		if (!parse_hex8(h + sizeof(newc_magic) + i * NEWC_FIELD_LEN, &f[i]))
			return false;
	return true;
}

/* Padding that brings off to a multiple of 4 (from the archive start). */
static uint64_t pad4(uint64_t off)
{
	return (4 - (off & 3)) & 3;
}

/* The name must end with its only NUL, at index namesize - 1. */
static bool name_ok(const uint8_t *name, uint32_t namesize)
{
	if (namesize < 2 || name[namesize - 1] != 0)
		return false;
	for (uint32_t i = 0; i + 1 < namesize; i++)
		if (name[i] == 0)
			return false;
	return true;
}

static bool fail(struct initrd_iter *it)
{
	it->error = true;
	it->done = true;
	return false;
}

void initrd_iter_init(struct initrd_iter *it, const void *base, uint64_t len)
{
	it->base = base;
	it->len = len;
	it->off = 0;
	it->done = false;
	it->error = false;
}

bool initrd_next(struct initrd_iter *it, struct initrd_file *out)
{
	uint32_t f[F_COUNT];
	uint64_t off = it->off, room, data_off, data_end;

	if (it->done)
		return false;
	room = it->len - off;
	if (room < NEWC_HDR_LEN || !parse_header(it->base + off, f))
		return fail(it); /* includes running off the end: no trailer */
	off += NEWC_HDR_LEN;
	room -= NEWC_HDR_LEN;

	if (f[F_NAMESIZE] > room || !name_ok(it->base + off, f[F_NAMESIZE]))
		return fail(it);
	out->name = (const char *)(it->base + off);
	out->name_len = f[F_NAMESIZE] - 1;
	off += f[F_NAMESIZE];
	room -= f[F_NAMESIZE];

	if (pad4(off) > room)
		return fail(it);
	data_off = off + pad4(off);
	room -= pad4(off);
	if (f[F_FILESIZE] > room)
		return fail(it);
	data_end = data_off + f[F_FILESIZE];

	if (out->name_len == sizeof(trailer_name) - 1 &&
	    bytes_equal((const uint8_t *)out->name, trailer_name, out->name_len)) {
		it->done = true;
		return false;
	}

	out->data = it->base + data_off;
	out->size = f[F_FILESIZE];
	out->mode = f[F_MODE];
	out->uid = f[F_UID];
	out->gid = f[F_GID];
	/* Missing final padding leaves off == len: the next call reports the
	 * missing trailer. */
	uint64_t pad = pad4(data_end), left = it->len - data_end;
	it->off = data_end + (pad < left ? pad : left);
	return true;
}

bool initrd_find(const void *base, uint64_t len, const char *path,
		 struct initrd_file *out)
{
	struct initrd_iter it;
	struct initrd_file f, last;
	size_t plen = cstr_len(path);
	bool found = false;

	initrd_iter_init(&it, base, len);
	while (initrd_next(&it, &f)) {
		if (f.name_len == plen &&
		    bytes_equal((const uint8_t *)f.name, path, plen)) {
			last = f;
			found = true;
		}
	}
	if (it.error || !found || !initrd_is_reg(&last))
		return false;
	*out = last;
	return true;
}
