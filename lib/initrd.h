/* Reader for the boot archive: a "newc" cpio archive (cpio -H newc, or
 * tools/mkinitrd.py). Pure logic with no libc calls and no allocation, so
 * the same code runs in the kernel and in host unit tests.
 *
 * The archive is untrusted input. Rules enforced for every entry:
 *  - magic "070701" (the "070702" CRC variant is not accepted);
 *  - all 13 header fields are exactly 8 hex digits;
 *  - the name is non-empty, fits in the archive, ends with its NUL at
 *    namesize-1 and contains no other NUL;
 *  - the name padding, the data and (except after the last entry) the data
 *    padding fit in the archive.
 * The archive must end with a "TRAILER!!!" entry; anything after it is
 * ignored. An archive without a trailer, including a 0-byte one, is
 * malformed (cpio always writes a trailer, so its absence means the image
 * was truncated). */
#ifndef ARBOR_INITRD_H
#define ARBOR_INITRD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* File type bits of initrd_file.mode (same values as POSIX st_mode). */
#define INITRD_S_IFMT  0170000u
#define INITRD_S_IFDIR 0040000u
#define INITRD_S_IFREG 0100000u

struct initrd_file {
	const char *name; /* points into the archive; see name_len */
	size_t name_len;  /* length without the NUL */
	const void *data; /* points into the archive */
	uint64_t size;
	uint32_t mode;    /* type bits | permission bits */
	uint32_t uid, gid;
};

struct initrd_iter {
	const uint8_t *base;
	uint64_t len;
	uint64_t off;  /* start of the next header; always <= len */
	bool done;     /* trailer reached, or stopped on an error */
	bool error;    /* the archive is malformed */
};

static inline bool initrd_is_reg(const struct initrd_file *f)
{
	return (f->mode & INITRD_S_IFMT) == INITRD_S_IFREG;
}

static inline bool initrd_is_dir(const struct initrd_file *f)
{
	return (f->mode & INITRD_S_IFMT) == INITRD_S_IFDIR;
}

void initrd_iter_init(struct initrd_iter *it, const void *base, uint64_t len);

/* Next entry; false at the trailer (error stays false) or on malformed
 * input, including a missing trailer (then it->error is true). Once it has
 * returned false it keeps returning false. The parser checks that the name
 * is NUL-terminated at name_len, but callers should still use name_len
 * rather than treat name as a C string. */
bool initrd_next(struct initrd_iter *it, struct initrd_file *out);

/* Finds a regular file by exact path (no leading slash, no "./"). Scans the
 * whole archive: returns false if the archive is malformed anywhere, or if
 * the path is absent or names a non-regular file. If the path appears more
 * than once, the last entry wins, as when extracting. */
bool initrd_find(const void *base, uint64_t len, const char *path,
		 struct initrd_file *out);

#endif
