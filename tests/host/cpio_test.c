/* lib/cpio.c: reading newc archives, and refusing cut or corrupt ones
 * without reading a byte outside them (each archive sits in a heap block of
 * exactly its size, so the address sanitizer catches any such read). */
#include "lib/cpio.h"
#include "tests/host/test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct archive {
	char bytes[4096];
	size_t size;
};

static void pad4(struct archive *a)
{
	while (a->size % 4)
		a->bytes[a->size++] = 0;
}

/* Append one entry, as tools/mkcpio.py writes it. */
static void add(struct archive *a, const char *name, uint32_t mode, const char *data)
{
	size_t namesize = strlen(name) + 1, size = strlen(data);
	a->size += (size_t)sprintf(a->bytes + a->size,
				   "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x",
				   1u, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u, namesize, 0u);
	memcpy(a->bytes + a->size, name, namesize);
	a->size += namesize;
	pad4(a);
	memcpy(a->bytes + a->size, data, size);
	a->size += size;
	pad4(a);
}

static void finish(struct archive *a) { add(a, "TRAILER!!!", 0, ""); }

/* Names of 1 to 4 characters cover every amount of padding. */
static struct archive sample(void)
{
	struct archive a = { .size = 0 };
	add(&a, "bin", CPIO_DIRECTORY | 0755, "");
	add(&a, "bin/hello", CPIO_REGULAR | 0755, "\177ELF and the rest");
	add(&a, "a", CPIO_REGULAR | 0644, "x");
	add(&a, "ab", CPIO_REGULAR | 0644, "xy");
	add(&a, "abc", CPIO_REGULAR | 0644, "xyz");
	add(&a, "abcd", CPIO_REGULAR | 0644, "");
	finish(&a);
	return a;
}

/* The first n bytes of a, alone in a heap block. */
static char *copy_prefix(const struct archive *a, size_t n)
{
	char *p = malloc(n ? n : 1);
	memcpy(p, a->bytes, n);
	return p;
}

/* Walk every entry (touching each data byte) and return how the walk ended. */
static enum cpio_status walk(const char *p, size_t n, int *entries)
{
	struct cpio_entry e;
	enum cpio_status status;
	static volatile unsigned sum;     /* volatile: the reads must happen */
	*entries = 0;
	for (size_t at = 0; (status = cpio_next(p, n, &at, &e)) == CPIO_FOUND; (*entries)++) {
		for (size_t i = 0; i < e.size; i++)
			sum += (unsigned char)((const char *)e.data)[i];
		sum += (unsigned)strlen(e.name);
	}
	return status;
}

TEST(cpio_lists_every_entry_in_order)
{
	struct archive a = sample();
	char *p = copy_prefix(&a, a.size);
	static const char *const names[] = { "bin", "bin/hello", "a", "ab", "abc", "abcd" };
	static const char *const data[] = { "", "\177ELF and the rest", "x", "xy", "xyz", "" };
	struct cpio_entry e;
	size_t at = 0;
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ_INT(cpio_next(p, a.size, &at, &e), CPIO_FOUND);
		EXPECT_EQ_STR(e.name, names[i]);
		EXPECT_EQ_UINT(e.size, strlen(data[i]));
		EXPECT(memcmp(e.data, data[i], e.size) == 0);
		EXPECT_EQ_INT(at % 4, 0);
	}
	EXPECT_EQ_INT(cpio_next(p, a.size, &at, &e), CPIO_END);
	free(p);
}

TEST(cpio_finds_by_path)
{
	struct archive a = sample();
	char *p = copy_prefix(&a, a.size);
	struct cpio_entry e;
	EXPECT_EQ_INT(cpio_find(p, a.size, "/bin/hello", &e), CPIO_FOUND);
	EXPECT_EQ_STR(e.name, "bin/hello");
	EXPECT_EQ_UINT(e.mode, CPIO_REGULAR | 0755);
	EXPECT(memcmp(e.data, "\177ELF", 4) == 0);
	EXPECT_EQ_INT(cpio_find(p, a.size, "bin/hello", &e), CPIO_FOUND);
	EXPECT_EQ_INT(cpio_find(p, a.size, "./bin/hello", &e), CPIO_FOUND);
	EXPECT_EQ_INT(cpio_find(p, a.size, "/bin", &e), CPIO_FOUND);
	EXPECT_EQ_UINT(e.mode & CPIO_TYPE_MASK, CPIO_DIRECTORY);
	free(p);
}

TEST(cpio_missing_path_is_not_found)
{
	struct archive a = sample();
	char *p = copy_prefix(&a, a.size);
	struct cpio_entry e = { .name = "untouched" };
	EXPECT_EQ_INT(cpio_find(p, a.size, "/bin/hell", &e), CPIO_END);
	EXPECT_EQ_INT(cpio_find(p, a.size, "/bin/hello/", &e), CPIO_END);
	EXPECT_EQ_INT(cpio_find(p, a.size, "/TRAILER!!!", &e), CPIO_END);
	EXPECT_EQ_STR(e.name, "untouched");
	free(p);
}

TEST(cpio_leading_dot_slash_in_the_archive)
{
	struct archive a = { .size = 0 };
	add(&a, "./init", CPIO_REGULAR | 0755, "#!");
	finish(&a);
	char *p = copy_prefix(&a, a.size);
	struct cpio_entry e;
	EXPECT_EQ_INT(cpio_find(p, a.size, "/init", &e), CPIO_FOUND);
	free(p);
}

TEST(cpio_empty_archive)
{
	struct archive a = { .size = 0 };
	finish(&a);
	char *p = copy_prefix(&a, a.size);
	int entries;
	EXPECT_EQ_INT(walk(p, a.size, &entries), CPIO_END);
	EXPECT_EQ_INT(entries, 0);
	free(p);
	EXPECT_EQ_INT(cpio_next("", 0, &(size_t){ 0 }, &(struct cpio_entry){ 0 }), CPIO_CORRUPT);
}

/* Cut anywhere before its end, the archive is corrupt: never END, never a
 * read past the cut. */
TEST(cpio_every_truncation_is_corrupt)
{
	struct archive a = sample();
	for (size_t n = 0; n < a.size && !test_failed(); n++) {
		char *p = copy_prefix(&a, n);
		int entries;
		struct cpio_entry e;
		EXPECT_EQ_INT(walk(p, n, &entries), CPIO_CORRUPT);
		EXPECT_EQ_INT(cpio_find(p, n, "/not/there", &e), CPIO_CORRUPT);
		free(p);
	}
}

/* The sample with the header field `field` (0 is the magic) of entry 1
 * (bin/hello) overwritten by `text`. */
static enum cpio_status walk_with_field(int field, const char *text)
{
	struct archive a = sample();
	size_t entry1 = 116;              /* after "bin": 110 header bytes and "bin\0", padded to 4 */
	size_t at = entry1 + (field == 0 ? 0 : 6 + (size_t)(field - 1) * 8);
	memcpy(a.bytes + at, text, strlen(text));
	char *p = copy_prefix(&a, a.size);
	int entries;
	enum cpio_status status = walk(p, a.size, &entries);
	free(p);
	return status;
}

TEST(cpio_corrupt_headers_are_refused)
{
	/* A sanity check of the offsets below: unchanged fields walk to the end. */
	EXPECT_EQ_INT(walk_with_field(0, "070701"), CPIO_END);
	EXPECT_EQ_INT(walk_with_field(7, "00000011"), CPIO_END);

	EXPECT_EQ_INT(walk_with_field(0, "070707"), CPIO_CORRUPT);         /* the old binary-ish format */
	EXPECT_EQ_INT(walk_with_field(2, "0000g1ed"), CPIO_CORRUPT);       /* mode: not hex */
	EXPECT_EQ_INT(walk_with_field(7, "ffffffff"), CPIO_CORRUPT);       /* data past the end */
	EXPECT_EQ_INT(walk_with_field(7, "00001000"), CPIO_CORRUPT);
	EXPECT_EQ_INT(walk_with_field(12, "ffffffff"), CPIO_CORRUPT);      /* name past the end */
	EXPECT_EQ_INT(walk_with_field(12, "00000000"), CPIO_CORRUPT);      /* no room for a NUL */
	EXPECT_EQ_INT(walk_with_field(12, "00000009"), CPIO_CORRUPT);      /* "bin/hello" without its NUL */
	EXPECT_EQ_INT(walk_with_field(12, "0000000b"), CPIO_CORRUPT);      /* a NUL before the last byte */
	EXPECT_EQ_INT(walk_with_field(12, " 000000a"), CPIO_CORRUPT);
}

/* Uppercase hex is newc too (GNU cpio reads it). */
TEST(cpio_uppercase_hex)
{
	struct archive a = { .size = 0 };
	add(&a, "f", CPIO_REGULAR | 0644, "0123456789");
	finish(&a);
	memcpy(a.bytes + 6 + 6 * 8, "0000000A", 8);
	char *p = copy_prefix(&a, a.size);
	struct cpio_entry e;
	EXPECT_EQ_INT(cpio_find(p, a.size, "f", &e), CPIO_FOUND);
	EXPECT_EQ_UINT(e.size, 10);
	free(p);
}
