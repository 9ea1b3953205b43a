/*
 * massive_intr - many tasks that mostly compute but sleep often.
 *
 * Modelled on the massive_intr test of the 2007 scheduler debates: N tasks
 * each repeat "compute for about 8 ms, sleep about 1 ms" and count how many
 * times they got round. A scheduler that rewards sleepers with heuristics
 * can let some of them starve the others; a fair one gives every task
 * nearly the same count.
 *
 * "Compute for 8 ms" is a fixed amount of work: first the loops per
 * millisecond of an idle CPU are measured (best of five 20 ms runs), and
 * every task then burns work_ms times that. After a warm-up every count is
 * snapshot, and again after the measured interval:
 *
 *     spread = max count / min count     (1.000 is perfectly even)
 *
 *   procs=N      number of tasks                            (default 10)
 *   ms=T         measured interval in ms                    (default 10000)
 *   warmup_ms=W  run time before the first snapshot, in ms  (default 500)
 *   work_ms=X    computation per round, in ms of idle CPU   (default 8)
 *   sleep_ms=Y   sleep per round, in ms                     (default 1)
 *
 *   RESULT name=massive_intr procs=10 ms=10000 work_ms=8 sleep_ms=1
 *          loops_per_ms=... min=... avg=... max=... spread=...
 *
 * As ../shared/peer/workloads/massive_intr.c, with kernel tasks.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"

enum { PROCS, MS, WARMUP_MS, WORK_MS, SLEEP_MS };

static const struct workload_param massive_intr_params[] = {
	[PROCS]     = { "procs", 10, 1, 1024, "number of tasks" },
	[MS]        = { "ms", 10000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[WORK_MS]   = { "work_ms", 8, 1, 10000, "computation per round, in ms of idle CPU" },
	[SLEEP_MS]  = { "sleep_ms", 1, 0, 10000, "sleep per round, in ms" },
};

struct round {
	uint64_t work_loops;
	uint64_t sleep;                   /* ns */
};

/* The unit of work: a loop the compiler can neither remove nor shorten. */
static void burn(uint64_t loops)
{
	volatile uint64_t sink = 0;
	while (loops--)
		sink++;
}

/* Loops of burn() per millisecond on this (still idle) CPU: the best of
 * five 20 ms runs, as an interrupt or a host hiccup only makes one slower. */
static uint64_t calibrate(void)
{
	uint64_t best = 0, chunk = 10000;
	for (int run = 0; run < 5; run++) {
		uint64_t loops = 0, start = clock_ns(), elapsed;
		do {
			burn(chunk);
			loops += chunk;
			elapsed = clock_ns() - start;
		} while (elapsed < 20 * NS_PER_MS);
		uint64_t rate = loops * NS_PER_MS / elapsed;
		best = rate > best ? rate : best;
	}
	return best;
}

static void work_sleep(struct worker *w)
{
	const struct round *round = w->crew->arg;
	while (!w->crew->stop) {
		burn(round->work_loops);
		sleep_ns(round->sleep);
		w->count.n++;
	}
}

static int run_massive_intr(const int64_t *v)
{
	int procs = (int)v[PROCS];
	uint64_t loops_per_ms = calibrate();
	struct round round = { loops_per_ms * (uint64_t)v[WORK_MS], (uint64_t)v[SLEEP_MS] * NS_PER_MS };
	uint64_t *start = kmalloc((size_t)procs * sizeof(uint64_t)), *end = kmalloc((size_t)procs * sizeof(uint64_t));
	struct crew crew;
	if (!start || !end || crew_create(&crew, procs, "massive_intr", work_sleep, &round) < 0) {
		if (!start || !end)
			pr_err("massive_intr: out of memory");
		kfree(start);
		kfree(end);
		return -1;
	}

	crew_start(&crew);
	sleep_ms((uint64_t)v[WARMUP_MS]);
	crew_counts(&crew, start);
	sleep_ms((uint64_t)v[MS]);
	crew_counts(&crew, end);
	crew_stop(&crew);

	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
	for (int i = 0; i < procs; i++) {
		uint64_t n = end[i] - start[i];
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
		sum += n;
	}
	kfree(start);
	kfree(end);

	struct result r;
	result_begin(&r, "massive_intr");
	result_add(&r, "procs=%d ms=%lld work_ms=%lld sleep_ms=%lld loops_per_ms=%llu min=%llu", procs,
		   (long long)v[MS], (long long)v[WORK_MS], (long long)v[SLEEP_MS],
		   (unsigned long long)loops_per_ms, (unsigned long long)lo);
	result_fixed(&r, "avg", div_round(sum * 10, (uint64_t)procs), 1);
	result_add(&r, "max=%llu", (unsigned long long)hi);
	result_ratio(&r, "spread", hi, lo, 3);
	result_print(&r);
	return 0;
}

WORKLOAD(massive_intr, "tasks that work ~8 ms and sleep ~1 ms: are they treated alike?", massive_intr_params,
	 run_massive_intr);
