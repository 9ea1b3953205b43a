/* The pieces the workloads share; see common.h. */
#include <stdarg.h>
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "sched/api.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"
#include "lib/printf.h"
#include "lib/sort.h"

/* --- Crews ----------------------------------------------------------------- */

static void worker_main(void *arg)
{
	struct worker *w = arg;
	w->crew->body(w);
}

int crew_create(struct crew *c, int n, const char *name, void (*body)(struct worker *w), const void *arg)
{
	*c = (struct crew){ .body = body, .arg = arg };
	/* kmalloc aligns to 16 bytes: 63 more let every counter start a cache line. */
	c->mem = kzalloc((size_t)n * sizeof(struct worker) + 63);
	if (!c->mem) {
		pr_err("%s: out of memory for %d tasks", name, n);
		return -1;
	}
	c->workers = (struct worker *)(((uintptr_t)c->mem + 63) & ~(uintptr_t)63);
	for (; c->n < n; c->n++) {
		struct worker *w = &c->workers[c->n];
		w->crew = c;
		w->task = task_create(name, worker_main, w);
		if (!w->task) {
			pr_err("%s: out of memory for task %d of %d", name, c->n + 1, n);
			crew_stop(c);
			return -1;
		}
	}
	return 0;
}

void crew_start(struct crew *c)
{
	c->started = true;
	for (int i = 0; i < c->n; i++)
		task_start(c->workers[i].task);
}

void crew_stop(struct crew *c)
{
	c->stop = true;
	for (int i = 0; i < c->n; i++) {
		/* A task must run to exit: one never started just sees stop and returns. */
		if (!c->started)
			task_start(c->workers[i].task);
		task_join(c->workers[i].task);
	}
	kfree(c->mem);
	c->mem = NULL;
	c->workers = NULL;
	c->n = 0;
}

void crew_counts(const struct crew *c, uint64_t *out)
{
	for (int i = 0; i < c->n; i++)
		out[i] = c->workers[i].count.n;
}

void crew_runtimes(const struct crew *c, uint64_t *out)
{
	/* The scheduler's own accounting: what each task was charged, whatever
	 * the host did to the virtual CPU meanwhile. */
	for (int i = 0; i < c->n; i++)
		out[i] = task_sched_runtime(c->workers[i].task);
}

uint64_t crew_total_runtime(const struct crew *c)
{
	uint64_t total = 0;
	for (int i = 0; i < c->n; i++)
		total += task_sched_runtime(c->workers[i].task);
	return total;
}

void hog_body(struct worker *w)
{
	while (!w->crew->stop)
		w->count.n++;
}

/* --- CPUs ------------------------------------------------------------------ */

int online_cpus(void)
{
	return cpus_online();
}

int check_cpu(const char *workload, const char *key, int64_t cpu)
{
	if (cpu == -1 || (cpu >= 0 && cpu < nr_cpus && cpus[cpu].online))
		return 0;
	pr_err("%s: %s=%lld, but the online CPUs are 0..%d", workload, key, (long long)cpu, online_cpus() - 1);
	return -1;
}

void pin_task(struct task *p, int cpu)
{
	if (cpu >= 0)
		p->cpus_allowed = 1ULL << cpu;
}

cpumask_t pin_self(int cpu)
{
	cpumask_t old = ~0ULL;
	sched_getaffinity(0, &old);
	if (cpu >= 0)
		sched_setaffinity(0, 1ULL << cpu);   /* moves us at once if we are elsewhere */
	return old;
}

void restore_affinity(cpumask_t mask)
{
	sched_setaffinity(0, mask);
}

/* --- Time ------------------------------------------------------------------ */

void sleep_ms(uint64_t ms)
{
	sleep_ns(ms * NS_PER_MS);
}

/* clock_nanosleep(TIMER_ABSTIME): the deadline stays put, however late we
 * are to ask for it. */
void sleep_until(uint64_t deadline)
{
	uint64_t now;
	while ((now = clock_ns()) < deadline)
		sleep_ns(deadline - now);
}

uint64_t sleep_period(uint64_t *deadline, uint64_t period)
{
	*deadline += period;
	sleep_until(*deadline);
	uint64_t late = clock_ns() - *deadline;
	if (late >= period)
		*deadline += late;        /* start again from now */
	return late;
}

int64_t repeat_timed(int (*op)(void *arg), void *arg, int64_t warmup, int64_t count, int64_t max_ms,
		     int check_every, uint64_t *elapsed)
{
	for (int64_t i = 0; i < warmup; i++)
		if (op(arg) < 0)
			return -1;
	uint64_t start = clock_ns(), deadline = start + (uint64_t)max_ms * NS_PER_MS;
	int64_t done = 0;
	while (done < count) {
		if (op(arg) < 0)
			return -1;
		if (++done % check_every == 0 && clock_ns() > deadline)
			break;
	}
	*elapsed = clock_ns() - start;
	return done;
}

/* --- CPU time and the latency probe --------------------------------------- */

void burn_cpu_ns(uint64_t ns)
{
	struct task *me = current_task();
	uint64_t end = task_sched_runtime(me) + ns;
	while (task_sched_runtime(me) < end)
		for (volatile int i = 0; i < 200; i++)   /* a few us between the locked reads */
			;
}

static void probe_main(void *arg)
{
	struct probe *pr = arg;
	uint64_t deadline = clock_ns();
	while (!pr->stop) {
		uint64_t late = sleep_period(&deadline, pr->period);
		if (pr->n < pr->room)
			pr->late[pr->n++] = late;
		pr->max = late > pr->max ? late : pr->max;
	}
}

int probe_start(struct probe *pr, int cpu, uint64_t period_ns, uint64_t ms)
{
	*pr = (struct probe){ .period = period_ns, .room = (int64_t)(ms * NS_PER_MS / period_ns) + 16 };
	pr->late = kmalloc((size_t)pr->room * sizeof(uint64_t));
	pr->task = pr->late ? task_create("probe", probe_main, pr) : NULL;
	if (!pr->task) {
		pr_err("probe: out of memory");
		kfree(pr->late);
		return -1;
	}
	pin_task(pr->task, cpu);
	task_start(pr->task);
	return 0;
}

void probe_stop(struct probe *pr)
{
	pr->stop = true;
	task_join(pr->task);              /* within a period */
	sort_u64(pr->late, (size_t)pr->n);
}

void probe_report(struct probe *pr, struct result *r)
{
	if (pr->n > 0) {
		result_us(r, "probe_p50_us", percentile(pr->late, pr->n, 50));
		result_us(r, "probe_p99_us", percentile(pr->late, pr->n, 99));
	}
	result_us(r, "probe_max_us", pr->max);
	result_add(r, "probe_samples=%lld", (long long)pr->n);
	kfree(pr->late);
	pr->late = NULL;
}

/* --- Arithmetic ------------------------------------------------------------ */

uint64_t div_round(uint64_t a, uint64_t b)
{
	return (a + b / 2) / b;
}

uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 product = (unsigned __int128)a * b;
	uint64_t hi = (uint64_t)(product >> 64), lo = (uint64_t)product, q, r;
	/* C's 128-bit division is a libgcc call, which the kernel lacks; divq
	 * divides rdx:rax by 64 bits, and faults if the quotient does not fit. */
	if (hi >= c)
		return UINT64_MAX;
	__asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(c) : "cc");
	return q + (r >= c - r);          /* round half up */
}

uint64_t deviation(uint64_t value, uint64_t ideal, uint64_t unit)
{
	uint64_t diff = value > ideal ? value - ideal : ideal - value;
	return mul_div(diff, unit, ideal);
}

/* --- RESULT lines ---------------------------------------------------------- */

static void result_vadd(struct result *r, const char *fmt, va_list ap)
{
	int n = vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
	if (n > 0)
		r->len += (size_t)n;
	if (r->len >= sizeof(r->text))   /* cut: the parameter ranges keep this from happening */
		r->len = sizeof(r->text) - 1;
}

static void append(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	result_vadd(r, fmt, ap);
	va_end(ap);
}

void result_begin(struct result *r, const char *workload)
{
	r->len = 0;
	append(r, "RESULT name=%s", workload);
}

/* Every field after the first starts with a space. */
void result_add(struct result *r, const char *fmt, ...)
{
	va_list ap;
	append(r, " ");
	va_start(ap, fmt);
	result_vadd(r, fmt, ap);
	va_end(ap);
}

static uint64_t pow10(int decimals)
{
	uint64_t scale = 1;
	while (decimals-- > 0)
		scale *= 10;
	return scale;
}

static void append_fixed(struct result *r, uint64_t value, int decimals)
{
	uint64_t scale = pow10(decimals);
	if (decimals == 0)
		append(r, "%llu", (unsigned long long)value);
	else
		append(r, "%llu.%0*llu", (unsigned long long)(value / scale), decimals,
		       (unsigned long long)(value % scale));
}

void result_fixed(struct result *r, const char *key, uint64_t value, int decimals)
{
	result_add(r, "%s=", key);
	append_fixed(r, value, decimals);
}

/* Comma-separated, as the Linux programs print lists. */
void result_fixed_list(struct result *r, const char *key, const uint64_t *values, int n, int decimals)
{
	result_add(r, "%s=", key);
	for (int i = 0; i < n; i++) {
		if (i > 0)
			append(r, ",");
		append_fixed(r, values[i], decimals);
	}
}

void result_ratio(struct result *r, const char *key, uint64_t num, uint64_t den, int decimals)
{
	if (den == 0)
		result_add(r, "%s=inf", key);
	else
		result_fixed(r, key, mul_div(num, pow10(decimals), den), decimals);
}

void result_print(const struct result *r)
{
	pr_info("%s", r->text);
}

void result_us(struct result *r, const char *key, uint64_t ns)
{
	result_fixed(r, key, div_round(ns, NS_PER_US / 10), 1);
}

uint64_t percentile(const uint64_t *sorted, int64_t n, int64_t p)
{
	int64_t rank = (p * n + 99) / 100;
	return sorted[rank < 1 ? 0 : rank > n ? n - 1 : rank - 1];
}
