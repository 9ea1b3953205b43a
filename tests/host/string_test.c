/* lib/string.c against the host libc, plus parse_i64. */
#include "tests/host/lib.h"
#include "tests/host/test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void fill_random(unsigned char *buf, size_t n, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (unsigned char)test_rand(seed);
}

TEST(memset_values_and_bounds)
{
	static const int values[] = { 0, 0x5a, 0xff, -1, 0x1234, INT_MIN };
	unsigned char buf[80];

	for (size_t v = 0; v < ARRAY_SIZE(values); v++) {
		for (size_t off = 0; off < 8; off++) {
			for (size_t n = 0; n + off <= 64; n++) {
				memset(buf, 0xee, sizeof(buf));
				EXPECT_EQ_PTR(lm_memset(buf + off, values[v], n), buf + off);
				for (size_t i = 0; i < sizeof(buf); i++) {
					int want = i >= off && i < off + n ?
						   (unsigned char)values[v] : 0xee;

					if (buf[i] != want)
						test_fail(__FILE__, __LINE__, "memset(+%zu, %#x, %zu): byte %zu is %#x",
							  off, values[v], n, i, buf[i]);
				}
			}
		}
	}
}

TEST(memcpy_sizes_and_alignments)
{
	unsigned char src[96], dst[96], want[96];
	uint64_t seed = 1;

	for (size_t so = 0; so < 8; so++) {
		for (size_t d_o = 0; d_o < 8; d_o++) {
			for (size_t n = 0; n + 8 <= 88; n++) {
				fill_random(src, sizeof(src), &seed);
				fill_random(dst, sizeof(dst), &seed);
				memcpy(want, dst, sizeof(want));
				memcpy(want + d_o, src + so, n);
				EXPECT_EQ_PTR(lm_memcpy(dst + d_o, src + so, n), dst + d_o);
				EXPECT(memcmp(dst, want, sizeof(dst)) == 0);
			}
		}
	}
}

TEST(memmove_overlap_both_directions)
{
	enum { SIZE = 48 };
	unsigned char buf[SIZE], want[SIZE], tmp[SIZE];
	uint64_t seed = 2;
	int forwards = 0, backwards = 0;

	/* Every source offset, destination offset and length that fits. */
	for (size_t src = 0; src < SIZE; src++) {
		for (size_t dst = 0; dst < SIZE; dst++) {
			for (size_t n = 0; src + n <= SIZE && dst + n <= SIZE; n++) {
				fill_random(buf, SIZE, &seed);
				memcpy(want, buf, SIZE);
				memcpy(tmp, buf + src, n);	/* reference: via a temporary */
				memcpy(want + dst, tmp, n);
				EXPECT_EQ_PTR(lm_memmove(buf + dst, buf + src, n), buf + dst);
				if (memcmp(buf, want, SIZE) != 0)
					test_fail(__FILE__, __LINE__, "memmove(+%zu, +%zu, %zu) wrong", dst, src, n);
				if (n > 1 && dst < src && dst + n > src)
					forwards++;
				if (n > 1 && dst > src && src + n > dst)
					backwards++;
			}
		}
	}
	EXPECT(forwards > 1000);	/* both overlap directions were really exercised */
	EXPECT(backwards > 1000);
}

TEST(memcmp_sign_matches_libc)
{
	unsigned char a[40], b[40];
	uint64_t seed = 3;

	for (int iter = 0; iter < 20000; iter++) {
		size_t n = test_rand(&seed) % sizeof(a);

		fill_random(a, sizeof(a), &seed);
		memcpy(b, a, sizeof(b));
		if (n && iter % 4)	/* usually differ in one byte, often >= 0x80 */
			b[test_rand(&seed) % n] = (unsigned char)test_rand(&seed);
		EXPECT_EQ_INT(sign(lm_memcmp(a, b, n)), sign(memcmp(a, b, n)));
	}
	EXPECT(lm_memcmp("\x80", "\x01", 1) > 0);	/* bytes compare unsigned */
	EXPECT(lm_memcmp("abc", "abd", 2) == 0);
	EXPECT(lm_memcmp(NULL, NULL, 0) == 0);
}

TEST(strlen_strnlen)
{
	char s[70];

	for (size_t len = 0; len < 64; len++) {
		memset(s, 'x', len);
		s[len] = '\0';
		EXPECT_EQ_UINT(lm_strlen(s), len);
		for (size_t max = 0; max < 70; max++)
			EXPECT_EQ_UINT(lm_strnlen(s, max), max < len ? max : len);
	}
	/* strnlen must not read past max: no NUL in this array (ASan watches). */
	char raw[4] = { 'a', 'b', 'c', 'd' };

	EXPECT_EQ_UINT(lm_strnlen(raw, sizeof(raw)), 4);
	EXPECT_EQ_UINT(lm_strnlen(raw, 2), 2);
}

TEST(strcmp_strncmp_match_libc)
{
	static const char *const words[] = {
		"", "a", "b", "ab", "abc", "abd", "abcd", "\x80", "\x01", "a\xff", "a\x7f",
		"hello", "help", "hel", "\xc3\xa9t\xc3\xa9",
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(words); j++) {
			const char *a = words[i], *b = words[j];

			EXPECT_EQ_INT(sign(lm_strcmp(a, b)), sign(strcmp(a, b)));
			for (size_t n = 0; n < 7; n++)
				EXPECT_EQ_INT(sign(lm_strncmp(a, b, n)), sign(strncmp(a, b, n)));
		}
	}
	EXPECT(lm_strncmp("abc", "abd", SIZE_MAX) < 0);
}

TEST(strchr_strrchr_match_libc)
{
	static const char *const strs[] = { "", "a", "abcabc", "x\xe9y\xe9z", "aaaa" };
	static const int chars[] = { 'a', 'b', 'c', 'z', 0, 0xe9, (char)0xe9, 'a' + 0x100, 'q' };

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(chars); j++) {
			EXPECT_EQ_PTR(lm_strchr(strs[i], chars[j]), strchr(strs[i], chars[j]));
			EXPECT_EQ_PTR(lm_strrchr(strs[i], chars[j]), strrchr(strs[i], chars[j]));
		}
	}
	const char *s = "path/to/file";

	EXPECT_EQ_PTR(lm_strchr(s, '\0'), s + 12);	/* the NUL is findable */
	EXPECT_EQ_PTR(lm_strrchr(s, '/'), s + 7);
}

TEST(strlcpy_truncates_and_terminates)
{
	const char *src = "kernel";
	char dst[16];

	for (size_t size = 0; size < sizeof(dst); size++) {
		memset(dst, '#', sizeof(dst));
		EXPECT_EQ_UINT(lm_strlcpy(dst, src, size), 6);
		if (size == 0) {
			EXPECT(dst[0] == '#');	/* nothing written */
			continue;
		}
		size_t copied = size - 1 < 6 ? size - 1 : 6;

		EXPECT(memcmp(dst, src, copied) == 0);
		EXPECT(dst[copied] == '\0');
		EXPECT(dst[copied + 1] == '#');	/* nothing beyond the terminator */
	}
	EXPECT_EQ_UINT(lm_strlcpy(dst, "", sizeof(dst)), 0);
	EXPECT_EQ_STR(dst, "");
}

struct parse_case {
	const char *s;
	int rc;
	int64_t value;
};

static const struct parse_case parse_cases[] = {
	{ "0", 0, 0 },
	{ "-0", 0, 0 },
	{ "+5", 0, 5 },
	{ "123", 0, 123 },
	{ "010", 0, 10 },	/* decimal, not octal */
	{ "-42", 0, -42 },
	{ "0x1f", 0, 31 },
	{ "0X1F", 0, 31 },
	{ "0xAbC", 0, 0xabc },
	{ "-0x10", 0, -16 },
	{ "+0x10", 0, 16 },
	{ "1K", 0, 1024 },
	{ "1k", 0, 1024 },
	{ "2M", 0, 2 << 20 },
	{ "3G", 0, 3LL << 30 },
	{ "3g", 0, 3LL << 30 },
	{ "-1K", 0, -1024 },
	{ "0x10K", 0, 16 << 10 },
	{ "0x1g", 0, 1 << 30 },
	{ "0K", 0, 0 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "0x7fffffffffffffff", 0, INT64_MAX },
	{ "-0x8000000000000000", 0, INT64_MIN },
	{ "0000000000000000000000000000001", 0, 1 },
	{ "8589934591G", 0, INT64_MAX - (1LL << 30) + 1 },
	{ "-8589934592G", 0, INT64_MIN },
	{ "9223372036854775808", PARSE_RANGE, 0 },
	{ "-9223372036854775809", PARSE_RANGE, 0 },
	{ "99999999999999999999999", PARSE_RANGE, 0 },
	{ "0x8000000000000000", PARSE_RANGE, 0 },
	{ "0x10000000000000000", PARSE_RANGE, 0 },
	{ "8589934592G", PARSE_RANGE, 0 },
	{ "9007199254740992M", PARSE_RANGE, 0 },
	{ "", PARSE_INVALID, 0 },
	{ "-", PARSE_INVALID, 0 },
	{ "+", PARSE_INVALID, 0 },
	{ "K", PARSE_INVALID, 0 },
	{ "-K", PARSE_INVALID, 0 },
	{ "0x", PARSE_INVALID, 0 },
	{ "0xK", PARSE_INVALID, 0 },
	{ "0x-1", PARSE_INVALID, 0 },
	{ "--1", PARSE_INVALID, 0 },
	{ "+-1", PARSE_INVALID, 0 },
	{ "12a", PARSE_INVALID, 0 },
	{ "1f", PARSE_INVALID, 0 },	/* hex digits need 0x */
	{ " 1", PARSE_INVALID, 0 },
	{ "1 ", PARSE_INVALID, 0 },
	{ "1KK", PARSE_INVALID, 0 },
	{ "1KB", PARSE_INVALID, 0 },
	{ "1T", PARSE_INVALID, 0 },
	{ "1.5", PARSE_INVALID, 0 },
	{ "0xx1", PARSE_INVALID, 0 },
	{ "99999999999999999999999x", PARSE_INVALID, 0 },	/* garbage wins over overflow */
};

TEST(parse_i64_table)
{
	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];
		int64_t out = 12345;
		int rc = parse_i64(c->s, strlen(c->s), &out);

		if (rc != c->rc || out != (c->rc ? 12345 : c->value))
			test_fail(__FILE__, __LINE__, "parse_i64(\"%s\") = %d, %lld; want %d, %lld",
				  c->s, rc, (long long)out, c->rc, (long long)c->value);
	}
}

TEST(parse_i64_uses_exactly_len_bytes)
{
	int64_t out = 0;

	EXPECT_EQ_INT(parse_i64("123abc", 3, &out), 0);
	EXPECT_EQ_INT(out, 123);
	EXPECT_EQ_INT(parse_i64("4K,more", 2, &out), 0);
	EXPECT_EQ_INT(out, 4096);
	EXPECT_EQ_INT(parse_i64("12\0" "3", 4, &out), PARSE_INVALID);	/* embedded NUL */
	EXPECT_EQ_INT(parse_i64("0x10", 2, &out), PARSE_INVALID);	/* "0x" */
}

TEST(parse_i64_matches_strtoll)
{
	uint64_t seed = 4;
	char buf[40];

	for (int i = 0; i < 20000; i++) {
		long long v = (long long)test_rand(&seed) >> (test_rand(&seed) % 64);
		int64_t out;

		snprintf(buf, sizeof(buf), i % 2 ? "%lld" : "%#llx", i % 2 ? v : (v & LLONG_MAX));
		EXPECT_EQ_INT(parse_i64(buf, strlen(buf), &out), 0);
		EXPECT_EQ_INT(out, strtoll(buf, NULL, 0));
		if (test_failed())
			break;
	}
}
