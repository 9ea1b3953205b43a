/*
 * chew - how long is a process kept off the CPU, and how long does it run?
 *
 * A probe process shares cpu= with hogs nice-0 hogs and reads the clock in
 * a tight loop. Two reads further apart than threshold_us mean it was off
 * the CPU in between (another process ran): that gap is one "out"; the time
 * since the previous gap is one "ran", and ran + out one "period". With k
 * hogs a fair scheduler gives the probe turns of about one granularity and
 * keeps it out for about k such turns, every time alike; an unfair one
 * shows long outs or a spread between the average and the largest.
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
#include "probe.h"

#define MAX_HOGS 64
#define MAX_KEPT 4096                     /* gaps and runs kept for the medians */

enum { HOGS, CPU, MS, THRESHOLD_US, NPARAMS };

static struct param params[NPARAMS] = {
	[HOGS]         = { "hogs", 4, 0, MAX_HOGS, "nice-0 hogs beside the probe" },
	[CPU]          = { "cpu", 0, 0, MAX_CPU, "the CPU they share" },
	[MS]           = { "ms", 5000, 10, 3600000, "how long the probe watches, in ms" },
	[THRESHOLD_US] = { "threshold_us", 200, 1, 1000000, "a longer gap between clock reads is time off the CPU" },
};

/* What the probe finds, in memory it shares with the parent. */
struct chew {
	uint64_t length, threshold;       /* ns */
	uint64_t gaps, out_sum, out_max, ran_sum, elapsed;
	uint64_t out[MAX_KEPT], ran[MAX_KEPT];    /* the first MAX_KEPT of each, ns */
};

static void chew_body(void *arg)
{
	struct chew *c = arg;
	uint64_t start = now_ns(), last = start, run_start = start;
	while (last - start < c->length) {
		uint64_t now = now_ns();
		if (now - last > c->threshold) {
			uint64_t out = now - last;
			if (c->gaps < MAX_KEPT) {
				c->out[c->gaps] = out;
				c->ran[c->gaps] = last - run_start;
			}
			c->gaps++;
			c->out_sum += out;
			c->out_max = out > c->out_max ? out : c->out_max;
			c->ran_sum += last - run_start;
			run_start = now;
		}
		last = now;
	}
	c->ran_sum += last - run_start;
	c->elapsed = last - start;
}

int main(int argc, char **argv)
{
	params_parse("chew", "a probe beside hogs on one CPU: its off-CPU gaps and runs (chew-max)",
		     argc, argv, params, NPARAMS);
	int hogs = (int)params[HOGS].value, cpu = (int)params[CPU].value;
	check_cpu("cpu", cpu);

	struct chew *c = shared_alloc(sizeof(*c));
	c->length = (uint64_t)params[MS].value * 1000000;
	c->threshold = (uint64_t)params[THRESHOLD_US].value * 1000;
	struct gate gate;
	gate_init(&gate);
	pid_t hog_pids[MAX_HOGS];
	spawn_hogs(hog_pids, NULL, hogs, cpu, &gate);
	pid_t probe = spawn(chew_body, c, cpu, 0, &gate);
	gate_open(&gate);
	reap_child(probe);
	stop_children(hog_pids, hogs);

	/* A run ends at each gap, and one more at the end. */
	size_t kept = c->gaps < MAX_KEPT ? c->gaps : MAX_KEPT;
	sort_u64(c->out, kept);
	sort_u64(c->ran, kept);
	result_begin();
	result_add("cpu=%d hogs=%d ms=%ld gaps=%lu", cpu, hogs, params[MS].value, (unsigned long)c->gaps);
	result_us("out_avg_us", c->gaps ? c->out_sum / c->gaps : 0);
	result_us("out_p50_us", percentile(c->out, kept, 50));
	result_us("out_max_us", c->out_max);
	result_us("ran_avg_us", c->ran_sum / (c->gaps + 1));
	result_us("ran_p50_us", percentile(c->ran, kept, 50));
	result_us("per_avg_us", c->gaps ? (c->ran_sum + c->out_sum) / c->gaps : 0);
	result_add("share=%.4f", (double)c->ran_sum / (double)c->elapsed);
	result_end();
	return 0;
}
