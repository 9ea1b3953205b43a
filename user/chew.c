/*
 * chew - how long is a task kept off the CPU, and how long does it run?
 *
 * A probe task shares cpu= with hogs nice-0 hogs and reads the clock in a
 * tight loop. Two reads further apart than threshold_us mean it was off the
 * CPU in between (another task ran): that gap is one "out"; the time since
 * the previous gap is one "ran", and ran + out one "period". With k hogs a
 * fair scheduler gives the probe turns of about one granularity and keeps
 * it out for about k such turns, every time alike; an unfair one shows long
 * outs or a spread between the average and the largest.
 *
 *   hogs=K          nice-0 hogs beside the probe             (default 4)
 *   cpu=C           the CPU they share                       (default 0)
 *   ms=T            how long the probe watches               (default 5000)
 *   threshold_us=G  a longer gap between reads is an "out"   (default 200)
 *
 *   RESULT name=chew cpu=0 hogs=4 ms=5000 gaps=... out_avg_us=...
 *          out_p50_us=... out_max_us=... ran_avg_us=... ran_p50_us=...
 *          per_avg_us=... share=...
 *
 * The medians (of the first 4096 gaps and runs) shrug off the odd long gap
 * that is the host's doing, not the scheduler's.
 *
 * share is the probe's time on the CPU (the sum of its runs) over the
 * interval; 1 / (hogs + 1) is fair. Interrupts longer than the threshold
 * count as gaps too. Modelled on chew-max (Ingo Molnar's aggregated variant
 * of chew.c, ../shared/reference/scheduler-facts.md §6), reporting averages
 * and maxima over the whole run instead of a line per gap.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "arch/x86_64/time.h"
#include "lib/sort.h"

#define MAX_KEPT 4096             /* gaps and runs kept for the medians */

enum { HOGS, CPU, MS, THRESHOLD_US };

static const struct workload_param chew_params[] = {
	[HOGS]         = { "hogs", 4, 0, 64, "nice-0 hogs beside the probe" },
	[CPU]          = { "cpu", 0, 0, MAX_CPUS - 1, "the CPU they share" },
	[MS]           = { "ms", 5000, 10, 3600000, "how long the probe watches, in ms" },
	[THRESHOLD_US] = { "threshold_us", 200, 1, 1000000, "a longer gap between clock reads is time off the CPU" },
};

struct chew {
	uint64_t length, threshold;       /* ns */
	uint64_t gaps, out_sum, out_max, ran_sum, elapsed;
	uint64_t *out, *ran;              /* the first MAX_KEPT of each, ns */
};

static void chew_main(void *arg)
{
	struct chew *c = arg;
	uint64_t start = clock_ns(), last = start, run_start = start;
	while (last - start < c->length) {
		uint64_t now = clock_ns();
		if (now - last > c->threshold) {
			uint64_t out = now - last;
			c->gaps++;
			c->out_sum += out;
			c->out_max = out > c->out_max ? out : c->out_max;
			c->ran_sum += last - run_start;
			if (c->gaps <= MAX_KEPT) {
				c->out[c->gaps - 1] = out;
				c->ran[c->gaps - 1] = last - run_start;
			}
			run_start = now;
		}
		last = now;
	}
	c->ran_sum += last - run_start;
	c->elapsed = last - start;
}

static int run_chew(const int64_t *v)
{
	int hogs = (int)v[HOGS], cpu = (int)v[CPU];
	if (check_cpu("chew", "cpu", cpu) < 0)
		return -1;
	struct chew c = { .length = (uint64_t)v[MS] * NS_PER_MS, .threshold = (uint64_t)v[THRESHOLD_US] * NS_PER_US };
	c.out = kmalloc(MAX_KEPT * sizeof(uint64_t));
	c.ran = kmalloc(MAX_KEPT * sizeof(uint64_t));
	struct crew hogcrew;
	struct task *probe = NULL;
	if (c.out && c.ran && crew_create(&hogcrew, hogs, "hog", hog_body, NULL) == 0) {
		probe = task_create("chew", chew_main, &c);
		if (!probe)
			crew_stop(&hogcrew);
	}
	if (!probe) {
		pr_err("chew: out of memory");
		kfree(c.out);
		kfree(c.ran);
		return -1;
	}
	for (int i = 0; i < hogs; i++)
		pin_task(hogcrew.workers[i].task, cpu);
	pin_task(probe, cpu);
	crew_start(&hogcrew);
	task_start(probe);
	task_join(probe);
	crew_stop(&hogcrew);

	/* A run ends at each gap, and one more at the end. */
	int64_t kept = c.gaps < MAX_KEPT ? (int64_t)c.gaps : MAX_KEPT;
	sort_u64(c.out, (size_t)kept);
	sort_u64(c.ran, (size_t)kept);
	struct result r;
	result_begin(&r, "chew");
	result_add(&r, "cpu=%d hogs=%d ms=%lld gaps=%llu", cpu, hogs, (long long)v[MS], (unsigned long long)c.gaps);
	result_us(&r, "out_avg_us", c.gaps ? c.out_sum / c.gaps : 0);
	result_us(&r, "out_p50_us", kept ? percentile(c.out, kept, 50) : 0);
	result_us(&r, "out_max_us", c.out_max);
	result_us(&r, "ran_avg_us", c.ran_sum / (c.gaps + 1));
	result_us(&r, "ran_p50_us", kept ? percentile(c.ran, kept, 50) : 0);
	result_us(&r, "per_avg_us", c.gaps ? (c.ran_sum + c.out_sum) / c.gaps : 0);
	result_ratio(&r, "share", c.ran_sum, c.elapsed, 4);
	result_print(&r);
	kfree(c.out);
	kfree(c.ran);
	return 0;
}

WORKLOAD(chew, "a probe beside hogs on one CPU: its off-CPU gaps and runs (chew-max)", chew_params, run_chew);
