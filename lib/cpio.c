/*
 * The newc cpio reader (lib/cpio.h). Every length read from the archive is
 * compared with what is left of it before it is used, by subtraction, so
 * that a huge value cannot wrap an addition around.
 */
#include <stdbool.h>
#include "lib/cpio.h"
#include "lib/string.h"

#define HEADER_SIZE 110
#define FIELD_DIGITS 8

/* The header's fields after the magic, in order, as field numbers. */
enum { FIELD_MODE = 1, FIELD_FILESIZE = 6, FIELD_NAMESIZE = 11 };

static const char trailer_name[] = "TRAILER!!!";

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* Field `index` of the header at h, into *value; false if not 8 hex digits. */
static bool read_field(const char *h, int index, uint32_t *value)
{
	const char *digits = h + 6 + index * FIELD_DIGITS;
	uint32_t v = 0;
	for (int i = 0; i < FIELD_DIGITS; i++) {
		char c = digits[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*value = v;
	return true;
}

enum cpio_status cpio_next(const void *archive, size_t size, size_t *offset, struct cpio_entry *entry)
{
	const char *base = archive;
	size_t at = *offset;
	uint32_t mode, filesize, namesize;

	if (at > size || size - at < HEADER_SIZE || memcmp(base + at, "070701", 6) != 0)
		return CPIO_CORRUPT;
	const char *header = base + at;
	if (!read_field(header, FIELD_MODE, &mode) || !read_field(header, FIELD_FILESIZE, &filesize) ||
	    !read_field(header, FIELD_NAMESIZE, &namesize))
		return CPIO_CORRUPT;

	/* The name: namesize bytes, its NUL the last of them and the only one. */
	size_t name_at = at + HEADER_SIZE;
	if (namesize == 0 || namesize > size - name_at)
		return CPIO_CORRUPT;
	const char *name = base + name_at;
	if (strnlen(name, namesize) != namesize - 1)
		return CPIO_CORRUPT;

	size_t data_at = align4(name_at + namesize);
	if (data_at > size || filesize > size - data_at)
		return CPIO_CORRUPT;
	if (strcmp(name, trailer_name) == 0)
		return CPIO_END;

	*entry = (struct cpio_entry){ .name = name, .data = base + data_at, .size = filesize, .mode = mode };
	/* May pass the end (the last entry's padding cut off): the next call says so. */
	*offset = align4(data_at + filesize);
	return CPIO_FOUND;
}

/* "/bin/sh", "./bin/sh" and "bin/sh" are the same file. */
static const char *without_root(const char *path)
{
	if (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	return path;
}

enum cpio_status cpio_find(const void *archive, size_t size, const char *path, struct cpio_entry *entry)
{
	struct cpio_entry e;
	enum cpio_status status;
	path = without_root(path);
	for (size_t at = 0; (status = cpio_next(archive, size, &at, &e)) == CPIO_FOUND; ) {
		if (strcmp(without_root(e.name), path) == 0) {
			*entry = e;
			return CPIO_FOUND;
		}
	}
	return status;
}
