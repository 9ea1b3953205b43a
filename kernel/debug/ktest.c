#include <stdarg.h>
#include "kernel/debug/ktest.h"
#include "kernel/printk.h"
#include "arch/x86_64/time.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/time_units.h"

extern const struct ktest __start_ktests[], __stop_ktests[];

void ktest_report(struct ktest_ctx *t, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_info("  # %s:%d: %s", file, line, msg);
	t->failures++;
}

/* Does the comma-separated list name `suite`? */
static bool listed(const char *filter, const char *suite)
{
	size_t len = strlen(suite);
	for (const char *p = filter; *p; ) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == len && strncmp(p, suite, n) == 0)
			return true;
		p += n + (end != NULL);
	}
	return false;
}

/* "all", or suites separated by commas; "-name" leaves a suite out
 * ("all,-sched": every suite but sched). */
static bool selected(const char *filter, const char *suite)
{
	char excluded[64] = "-";
	strlcpy(excluded + 1, suite, sizeof(excluded) - 1);
	if (listed(filter, excluded))
		return false;
	return listed(filter, "all") || listed(filter, suite);
}

/* The suites in section order, each once: tests of one suite sit together. */
static int next_suite(int from)
{
	int n = (int)(__stop_ktests - __start_ktests);
	for (int i = from; i < n; i++)
		if (i == 0 || strcmp(__start_ktests[i].suite, __start_ktests[i - 1].suite) != 0)
			return i;
	return n;
}

static bool run_suite(int first, int number)
{
	const char *suite = __start_ktests[first].suite;
	int end = next_suite(first + 1), failed = 0;

	pr_info("  KTAP version 1");
	pr_info("  # Subtest: %s", suite);
	pr_info("  1..%d", end - first);
	for (int i = first; i < end; i++) {
		struct ktest_ctx ctx = { 0 };
		uint64_t t0 = clock_ns();
		__start_ktests[i].fn(&ctx);
		uint64_t ms = (clock_ns() - t0) / NS_PER_MS;
		if (ctx.failures)
			failed++;
		if (ctx.skip_reason)
			pr_info("  ok %d %s # SKIP %s", i - first + 1, __start_ktests[i].name, ctx.skip_reason);
		else {
			pr_info("  # %s: %llu ms", __start_ktests[i].name, (unsigned long long)ms);
			pr_info("  %s %d %s", ctx.failures ? "not ok" : "ok", i - first + 1, __start_ktests[i].name);
		}
	}
	pr_info("%s %d %s", failed ? "not ok" : "ok", number, suite);
	return failed == 0;
}

bool ktest_run(const char *filter)
{
	int n = (int)(__stop_ktests - __start_ktests), nsuites = 0, matched = 0;
	for (int i = next_suite(0); i < n; i = next_suite(i + 1)) {
		nsuites++;
		matched += selected(filter, __start_ktests[i].suite);
	}
	if (matched == 0) {
		char names[512] = "";
		for (int i = next_suite(0); i < n; i = next_suite(i + 1)) {
			strlcpy(names + strlen(names), " ", sizeof(names) - strlen(names));
			strlcpy(names + strlen(names), __start_ktests[i].suite, sizeof(names) - strlen(names));
		}
		pr_err("ktest: no test suite matches '%s'; the suites are:%s", filter, names);
		return false;
	}

	bool ok = true;
	int number = 0;
	pr_info("KTAP version 1");
	pr_info("1..%d", matched);
	for (int i = next_suite(0); i < n; i = next_suite(i + 1))
		if (selected(filter, __start_ktests[i].suite))
			ok &= run_suite(i, ++number);
	return ok;
}
