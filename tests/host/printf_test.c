/*
 * lib/printf.c: compared with the host libc wherever C defines the result,
 * and against fixed strings for our own choices (%p, NULL %s, errors).
 */
#include "tests/host/lib.h"
#include "tests/host/test.h"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define OUT_MAX 600

/*
 * Format with libc and with lib/printf.c and insist on identical output and
 * return value, then check every interesting truncated buffer size.
 */
__attribute__((format(printf, 3, 4)))
static void check_at(const char *file, int line, const char *fmt, ...)
{
	char want[OUT_MAX], got[OUT_MAX], small[OUT_MAX];
	va_list ap, aq;

	va_start(ap, fmt);
	va_copy(aq, ap);
	int want_n = vsnprintf(want, sizeof(want), fmt, aq);
	va_end(aq);
	va_copy(aq, ap);
	int got_n = lm_vsnprintf(got, sizeof(got), fmt, aq);
	va_end(aq);

	if (want_n < 0 || want_n >= OUT_MAX) {
		test_fail(file, line, "bad test case \"%s\"", fmt);
		goto out;
	}
	/* memcmp, not strcmp: %c may produce a NUL inside the output. */
	if (got_n != want_n || memcmp(got, want, want_n + 1) != 0) {
		test_fail(file, line, "\"%s\": got %d \"%s\", libc %d \"%s\"",
			  fmt, got_n, got, want_n, want);
		goto out;
	}

	size_t sizes[] = { 0, 1, 2, want_n / 2, want_n, want_n + 1 };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];

		memset(small, '#', sizeof(small));
		va_copy(aq, ap);
		int n = lm_vsnprintf(size ? small : NULL, size, fmt, aq);
		va_end(aq);
		size_t kept = size ? MIN(size - 1, (size_t)want_n) : 0;

		if (n != want_n || (size && (memcmp(small, want, kept) != 0 || small[kept] != '\0'))
		    || small[size ? kept + 1 : 0] != '#')
			test_fail(file, line, "\"%s\" into %zu bytes: returned %d, \"%.*s\"",
				  fmt, size, n, (int)kept, small);
	}
out:
	va_end(ap);
}

#define CHECK(...) check_at(__FILE__, __LINE__, __VA_ARGS__)

/* Our own result, compared with a fixed string. */
__attribute__((format(printf, 4, 5)))
static void expect_at(const char *file, int line, const char *want, const char *fmt, ...)
{
	char got[OUT_MAX];
	va_list ap;

	va_start(ap, fmt);
	int n = lm_vsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	if (n != (int)strlen(want) || strcmp(got, want) != 0)
		test_fail(file, line, "\"%s\": got %d \"%s\", want \"%s\"", fmt, n, got, want);
}

#define EXPECT_FMT(want, ...) expect_at(__FILE__, __LINE__, want, __VA_ARGS__)

/* Integer formats crossed with values: every flag, width and precision mix. */
static const char *const int_formats[] = {
	"%d", "%i", "%u", "%x", "%X", "%o",
	"%5d", "%-5d", "%05d", "%+d", "% d", "%+ d", "% +d", "%+5d", "%-+5d", "%- 5d",
	"%+05d", "% 05d", "%-05d", "%0-5d", "%.3d", "%.0d", "%.d", "%5.3d", "%-5.3d",
	"%05.3d", "%+.3d", "% .3d", "%+5.0d", "%1d", "%12d", "%.12d", "%-12.10d|",
	"%.3i", "%+i", "%5u", "%-5u|", "%05u", "%.3u", "%.0u", "%+u", "% u",
	"%#x", "%#X", "%#5x", "%#-8x|", "%#08x", "%#.3x", "%#.0x", "%.0x", "%08.3x",
	"%#o", "%#5o", "%#05o", "%#.0o", "%.0o", "%#.3o", "%#.5o", "%-#8o|", "%010o",
	"[%d]", "%d%%", "%%%d%%", "x%3dy%-3dz",
};

static const int int_values[] = {
	0, 1, -1, 7, -7, 8, 42, -42, 255, 256, 4095, -4096, 99999, 123456789,
	INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1,
};

TEST(printf_int_table)
{
	for (size_t f = 0; f < ARRAY_SIZE(int_formats); f++) {
		for (size_t v = 0; v < ARRAY_SIZE(int_values); v++) {
			/* Some formats use the value twice; spare arguments are ignored. */
			CHECK(int_formats[f], int_values[v], int_values[v]);
		}
	}
}

TEST(printf_length_modifiers)
{
	static const char *const hh_h[] = {
		"%hhd", "%hhi", "%hhu", "%hhx", "%hho", "%+hhd", "%#hhx", "%5hhd",
		"%hd", "%hi", "%hu", "%hx", "%hX", "%ho", "%+hd", "%#ho", "%08hd",
	};
	static const int small[] = { 0, 127, 128, 200, 255, 256, 300, -1, -128, -129,
				     32767, 32768, 65535, 65536, 70000, -32768, -32769, INT_MIN };

	for (size_t f = 0; f < ARRAY_SIZE(hh_h); f++)
		for (size_t v = 0; v < ARRAY_SIZE(small); v++)
			CHECK(hh_h[f], small[v]);

	static const long long big[] = { 0, 1, -1, INT_MAX + 1LL, INT_MIN - 1LL, UINT_MAX,
					 LLONG_MAX, LLONG_MIN, 0x123456789abcdefLL, -0x123456789abLL };

	for (size_t v = 0; v < ARRAY_SIZE(big); v++) {
		long long x = big[v];

		CHECK("%ld %li %lu %lx %lX %lo", (long)x, (long)x, (unsigned long)x,
		      (unsigned long)x, (unsigned long)x, (unsigned long)x);
		CHECK("%lld %lli %llu %llx %llX %llo", x, x, (unsigned long long)x,
		      (unsigned long long)x, (unsigned long long)x, (unsigned long long)x);
		CHECK("%zd %zu %zx %zo", (ptrdiff_t)x, (size_t)x, (size_t)x, (size_t)x);
		CHECK("%td %ti %tx", (ptrdiff_t)x, (ptrdiff_t)x, (ptrdiff_t)x);
		CHECK("%jd %ji %ju %jx %jo", (intmax_t)x, (intmax_t)x, (uintmax_t)x,
		      (uintmax_t)x, (uintmax_t)x);
		CHECK("%+25lld|%-25llx|%#.20llo|%025lld", x, (unsigned long long)x,
		      (unsigned long long)x, x);
		CHECK("%.0ld|%#lx|% ld", (long)x, (unsigned long)x, (long)x);
	}
	CHECK("%ju %jx", UINTMAX_MAX, UINTMAX_MAX);
	CHECK("%zu %zx", SIZE_MAX, SIZE_MAX);
	CHECK("%td %td", PTRDIFF_MAX, PTRDIFF_MIN);
	CHECK("%llu %#llo %#llX", ULLONG_MAX, ULLONG_MAX, ULLONG_MAX);
}

TEST(printf_star_width_and_precision)
{
	for (int w = -12; w <= 12; w++) {
		CHECK("%*d|", w, 42);
		CHECK("%*d|", w, -42);
		CHECK("%0*d|", w, -42);
		CHECK("%*s|", w, "abc");
		CHECK("%-*s|", w, "abc");
		CHECK("%*c|", w, 'q');
		CHECK("%.*d|", w, 42);		/* negative precision: as if omitted */
		CHECK("%#.*x|", w, 0);
		CHECK("%.*s|", w, "abcdef");
		CHECK("%*.*d|", w, w + 3, -7);
		CHECK("%*.*s|", w, 2, "abcdef");
		CHECK("%-*.*x|", w, 4, 0xbeef);
	}
}

TEST(printf_strings_and_chars)
{
	char not_terminated[3] = { 'a', 'b', 'c' };

	CHECK("%s", "");
	CHECK("%s", "hello, world");
	CHECK("%10s|%-10s|", "left", "right");
	CHECK("%.0s|%.2s|%5.2s|%-5.2s|", "abc", "abc", "abc", "abc");
	CHECK("%.10s|%2s|", "abc", "abcdef");
	CHECK("%.3s", not_terminated);	/* must not read past the precision */
	CHECK("%.2s", not_terminated);
	CHECK("%c%c%c", 'a', 'b', 'c');
	CHECK("%3c|%-3c|%1c", 'x', 'y', 'z');
	CHECK("%c", 200);
	CHECK("%c", -56);
	CHECK("<%c>", 0);		/* a NUL inside the output */
	CHECK("%5c|", 0);
	CHECK("%%");
	CHECK("100%% sure %s", "yes");
	const char *empty = "";

	CHECK(empty, 0);	/* not a literal "", which GCC warns about */
	CHECK("no conversions at all");
	CHECK("%s=%d (%#x) %c%%", "answer", 42, 42, '!');
}

TEST(printf_pointer)
{
	EXPECT_FMT("0x0000000000001234", "%p", (void *)0x1234);
	EXPECT_FMT("0x0000000000000000", "%p", NULL);
	EXPECT_FMT("0xffffffff80001000", "%p", (void *)0xffffffff80001000);
	EXPECT_FMT("  0x00000000deadbeef", "%20p", (void *)0xdeadbeef);
	EXPECT_FMT("0x00000000deadbeef  |", "%-20p|", (void *)0xdeadbeef);
	EXPECT_FMT("0x00000000deadbeef", "%5p", (void *)0xdeadbeef);
	EXPECT_FMT("[0x0000000000000010]", "[%p]", (void *)16);
}

TEST(printf_null_string)
{
	/* volatile: GCC would rightly reject a NULL it can see in a %s. */
	const char *volatile null = NULL;

	EXPECT_FMT("(null)", "%s", null);
	EXPECT_FMT("(nu", "%.3s", null);
	EXPECT_FMT("  (null)|(null)  |", "%8s|%-8s|", null, null);
}

TEST(printf_unknown_and_bad_specs)
{
	/* Non-literal formats, so the compiler lets us pass nonsense. */
	const char *fmts[][2] = {
		{ "%y", "%y" },
		{ "a%5kb", "a%5kb" },
		{ "%-08.3q", "%-08.3q" },
		{ "%n", "%n" },		/* never write through a pointer */
		{ "%f", "%f" },		/* no floating point in the kernel */
		{ "trailing %", "trailing %" },
		{ "trailing %-", "trailing %-" },
		{ "trailing %l", "trailing %l" },
		{ "%lq", "%lq" },
	};
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		int n = lm_snprintf(buf, sizeof(buf), fmts[i][0], 0);

		EXPECT_EQ_STR(buf, fmts[i][1]);
		EXPECT_EQ_INT(n, strlen(fmts[i][1]));
	}
}

TEST(printf_overflow_returns_error)
{
	/* volatile: hide the formats from GCC, which rejects them at compile time. */
	const char *volatile huge_width = "ab%99999999999d";
	const char *volatile huge_prec = "%.2147483648d";
	const char *volatile star = "%*d";
	char buf[16];

	EXPECT_EQ_INT(lm_snprintf(buf, sizeof(buf), huge_width, 1), -1);
	EXPECT(strlen(buf) < sizeof(buf));	/* still terminated */
	EXPECT_EQ_INT(lm_snprintf(buf, sizeof(buf), huge_prec, 1), -1);
	EXPECT_EQ_INT(lm_snprintf(buf, sizeof(buf), star, INT_MIN, 1), -1);
	/* Just below the limit is fine, and never touches the small buffer's end. */
	EXPECT_EQ_INT(lm_snprintf(buf, sizeof(buf), "%*d", 100000, 1), 100000);
	EXPECT_EQ_UINT(strlen(buf), sizeof(buf) - 1);
}

static void count_chars(void *ctx, char c)
{
	(void)c;
	++*(int *)ctx;
}

__attribute__((format(printf, 2, 3)))
static int count_format(int *count, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vformat(count_chars, count, fmt, ap);
	va_end(ap);
	return n;
}

TEST(vformat_callback)
{
	int count = 0;

	EXPECT_EQ_INT(count_format(&count, "%s-%05d-%p", "abc", 42, NULL), 28);
	EXPECT_EQ_INT(count, 28);
	count = 0;
	EXPECT_EQ_INT(count_format(&count, "%s", ""), 0);
	EXPECT_EQ_INT(count, 0);
}

TEST(snprintf_zero_size_and_return)
{
	char buf[8] = "XXXXXXX";

	EXPECT_EQ_INT(lm_snprintf(NULL, 0, "%d", 123456), 6);
	EXPECT_EQ_INT(lm_snprintf(buf, 0, "%d", 123456), 6);
	EXPECT_EQ_STR(buf, "XXXXXXX");	/* size 0: untouched */
	EXPECT_EQ_INT(lm_snprintf(buf, 1, "%d", 123456), 6);
	EXPECT_EQ_STR(buf, "");
	EXPECT_EQ_INT(lm_snprintf(buf, sizeof(buf), "%s", "12345678"), 8);
	EXPECT_EQ_STR(buf, "1234567");
}

/* Random format strings, restricted to what C defines, against libc. */
TEST(printf_random_sweep)
{
	static const char *const lengths[] = { "", "hh", "h", "l", "ll", "z", "t", "j" };
	static const char convs[] = "diuxXocs";
	static const char *const strs[] = { "", "a", "hello", "with space", "0123456789abcdef" };
	uint64_t seed = 5;
	char fmt[64];

	for (int iter = 0; iter < 30000 && !test_failed(); iter++) {
		char conv = convs[test_rand(&seed) % (sizeof(convs) - 1)];
		bool is_int = conv != 'c' && conv != 's';
		int pos = 0, stars = 0, star[2];

		fmt[pos++] = '%';
		for (int i = 0; i < 5; i++) {	/* flags, some repeated */
			char flag = "-+ #0"[test_rand(&seed) % 5];

			if (test_rand(&seed) % 3)
				continue;
			/* C leaves '#' undefined except for o/x/X, '0' for non-numbers. */
			if (flag == '#' && !strchr("oxX", conv))
				continue;
			if (flag == '0' && !is_int)
				continue;
			fmt[pos++] = flag;
		}
		switch (test_rand(&seed) % 3) {	/* width */
		case 1:
			pos += sprintf(fmt + pos, "%d", (int)(test_rand(&seed) % 30));
			break;
		case 2:
			fmt[pos++] = '*';
			star[stars++] = (int)(test_rand(&seed) % 61) - 30;
			break;
		}
		if (conv != 'c') {
			switch (test_rand(&seed) % 4) {	/* precision */
			case 1:
				fmt[pos++] = '.';
				break;
			case 2:
				pos += sprintf(fmt + pos, ".%d", (int)(test_rand(&seed) % 25));
				break;
			case 3:
				fmt[pos++] = '.';
				fmt[pos++] = '*';
				star[stars++] = (int)(test_rand(&seed) % 31) - 5;
				break;
			}
		}
		const char *len = is_int ? lengths[test_rand(&seed) % ARRAY_SIZE(lengths)] : "";

		pos += sprintf(fmt + pos, "%s%c|", len, conv);

		uint64_t raw = test_rand(&seed) >> (test_rand(&seed) % 64);
		bool is_signed = conv == 'd' || conv == 'i';

		/* Pass the argument with exactly the type the format asks for. */
#define SWEEP(arg)							\
		do {							\
			if (stars == 0)					\
				CHECK(fmt, arg);			\
			else if (stars == 1)				\
				CHECK(fmt, star[0], arg);		\
			else						\
				CHECK(fmt, star[0], star[1], arg);	\
		} while (0)

		if (conv == 's')
			SWEEP(strs[raw % ARRAY_SIZE(strs)]);
		else if (conv == 'c')
			SWEEP((int)(raw % 255) + 1);
		else if (!strcmp(len, "l") && is_signed)
			SWEEP((long)raw);
		else if (!strcmp(len, "l"))
			SWEEP((unsigned long)raw);
		else if (!strcmp(len, "ll") && is_signed)
			SWEEP((long long)raw);
		else if (!strcmp(len, "ll"))
			SWEEP((unsigned long long)raw);
		else if ((!strcmp(len, "z") || !strcmp(len, "t")) && is_signed)
			SWEEP((ptrdiff_t)raw);
		else if (!strcmp(len, "z") || !strcmp(len, "t"))
			SWEEP((size_t)raw);
		else if (!strcmp(len, "j") && is_signed)
			SWEEP((intmax_t)raw);
		else if (!strcmp(len, "j"))
			SWEEP((uintmax_t)raw);
		else if (is_signed)
			SWEEP((int)raw);
		else
			SWEEP((unsigned)raw);
#undef SWEEP
	}
}
