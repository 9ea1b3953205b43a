/*
 * A reader for "newc" cpio archives, the format of Linux's initramfs
 * (tools/mkcpio.py writes them). Each entry is a 110-byte ASCII header
 * ("070701" and 13 numbers of 8 hex digits), the name with its NUL, padding
 * to 4 bytes, the data, padding to 4 bytes; the entry named "TRAILER!!!"
 * ends the archive.
 *
 * The archive is read in place and trusted for nothing: a truncated or
 * corrupt one gives CPIO_CORRUPT, and no byte outside it is ever read.
 */
#ifndef LIB_CPIO_H
#define LIB_CPIO_H

#include <stddef.h>
#include <stdint.h>

/* The file type in an entry's mode (as st_mode). */
#define CPIO_TYPE_MASK 0170000
#define CPIO_REGULAR   0100000
#define CPIO_DIRECTORY 0040000

struct cpio_entry {
	const char *name;             /* inside the archive, NUL-terminated */
	const void *data;             /* inside the archive */
	size_t size;
	uint32_t mode;                /* type and permission bits */
};

enum cpio_status {
	CPIO_CORRUPT = -1,            /* not newc, or cut short */
	CPIO_END = 0,                 /* the trailer: no more entries (cpio_next), not found (cpio_find) */
	CPIO_FOUND = 1,               /* *entry is filled in */
};

/*
 * The entry at *offset (start at 0), and *offset moved to the next one:
 *   for (size_t at = 0; cpio_next(a, size, &at, &e) == CPIO_FOUND; ) ...
 */
enum cpio_status cpio_next(const void *archive, size_t size, size_t *offset, struct cpio_entry *entry);

/* The entry named `path`; a leading "/" or "./" on either side is ignored. */
enum cpio_status cpio_find(const void *archive, size_t size, const char *path, struct cpio_entry *entry);

#endif
