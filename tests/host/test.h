/*
 * A tiny unit-test framework.
 *
 *	TEST(addition) { EXPECT_EQ_INT(1 + 1, 2); }
 *
 * TEST registers the function at program start (a constructor). The runner
 * (tests/host/main.c) runs each test in its own child process, so a crash fails
 * one test instead of ending the run, and prints "ok N name" or
 * "not ok N name", then a final "N passed, N failed".
 * A failed EXPECT reports file:line and the values, and the test goes on.
 */
#ifndef TESTS_TEST_H
#define TESTS_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

void test_register(const char *name, void (*fn)(void));
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* True once the running test has failed: lets long loops stop early. */
bool test_failed(void);

#define TEST(name)							\
	static void name(void);						\
	__attribute__((constructor)) static void register_##name(void)	\
	{								\
		test_register(#name, name);				\
	}								\
	static void name(void)

#define EXPECT(cond)							\
	do {								\
		if (!(cond))						\
			test_fail(__FILE__, __LINE__, "expected %s", #cond); \
	} while (0)

#define EXPECT_EQ_INT(a, b)						\
	do {								\
		intmax_t a_ = (a), b_ = (b);				\
		if (a_ != b_)						\
			test_fail(__FILE__, __LINE__, "%s == %s: %jd != %jd", \
				  #a, #b, a_, b_);			\
	} while (0)

#define EXPECT_EQ_UINT(a, b)						\
	do {								\
		uintmax_t a_ = (a), b_ = (b);				\
		if (a_ != b_)						\
			test_fail(__FILE__, __LINE__, "%s == %s: %#jx != %#jx", \
				  #a, #b, a_, b_);			\
	} while (0)

#define EXPECT_EQ_PTR(a, b)						\
	do {								\
		const void *a_ = (a), *b_ = (b);			\
		if (a_ != b_)						\
			test_fail(__FILE__, __LINE__, "%s == %s: %p != %p", \
				  #a, #b, a_, b_);			\
	} while (0)

#define EXPECT_EQ_STR(a, b)						\
	do {								\
		const char *a_ = (a), *b_ = (b);			\
		if (!a_ || !b_ ? a_ != b_ : strcmp(a_, b_) != 0)	\
			test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				  #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

#define EXPECT_CONTAINS(haystack, needle)				\
	do {								\
		const char *h_ = (haystack), *n_ = (needle);		\
		if (!strstr(h_, n_))					\
			test_fail(__FILE__, __LINE__, "\"%s\" should contain \"%s\"", \
				  h_, n_);				\
	} while (0)

/* A small seeded PRNG (xorshift64*), so every run does the same work. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
