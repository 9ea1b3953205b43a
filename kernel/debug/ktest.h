/*
 * In-kernel tests, in the spirit of KUnit:
 *
 *     KTEST(pmm, alloc_free) { void *p = page_alloc(); KASSERT(t, p); ... }
 *
 * Every suite sits in tests/kernel/ (tests/README.md): a file of its own,
 * or, when the tests need a source's static functions, a file in
 * tests/kernel/included/ that the source #includes at its end. All of a
 * suite's tests go in one file: ktest_run() takes neighbours in the section
 * for a suite.
 *
 * The macro puts the test in the `ktests` linker section; `ktest=all` (or
 * `ktest=pmm,clock`) on the command line runs them after SMP bring-up,
 * prints KTAP version 1 and ends QEMU with the verdict.
 */
#pragma once
#include <stdbool.h>

struct ktest_ctx {
	int failures;
	const char *skip_reason;      /* set by KSKIP */
};

struct ktest {
	const char *suite, *name;
	void (*fn)(struct ktest_ctx *t);
};

#define KTEST(suite, name)                                                                  \
	static void ktest_fn_##suite##_##name(struct ktest_ctx *t);                         \
	static const struct ktest ktest_##suite##_##name                                    \
		__attribute__((used, section("ktests"), aligned(8))) = {                    \
		#suite, #name, ktest_fn_##suite##_##name };                                 \
	static void ktest_fn_##suite##_##name(struct ktest_ctx *t)

void ktest_report(struct ktest_ctx *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* EXPECT records a failure and carries on; ASSERT also ends the test. */
#define KEXPECT(t, cond)                                                                    \
	do { if (!(cond)) ktest_report(t, __FILE__, __LINE__, "expected %s", #cond); } while (0)
#define KEXPECT_EQ(t, a, b)                                                                 \
	do {                                                                                \
		long long a_ = (long long)(a), b_ = (long long)(b);                         \
		if (a_ != b_)                                                               \
			ktest_report(t, __FILE__, __LINE__, "expected %s == %s, got %lld and %lld", \
				     #a, #b, a_, b_);                                       \
	} while (0)
#define KASSERT(t, cond)                                                                    \
	do { if (!(cond)) { ktest_report(t, __FILE__, __LINE__, "assertion %s failed", #cond); return; } } while (0)
#define KSKIP(t, reason) do { (t)->skip_reason = (reason); return; } while (0)

/* Runs the suites named in `filter` ("all" or a comma-separated list); true if all passed. */
bool ktest_run(const char *filter);
