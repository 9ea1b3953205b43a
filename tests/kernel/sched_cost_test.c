/*
 * What one scheduling decision costs with 10 to 10,000 tasks: the fair
 * class's methods timed on a private runqueue (sched_cost_sample(),
 * sched/cost.c), in TSC cycles. Its tree keeps the leftmost node cached,
 * so picking the next task is one load whatever the number of tasks,
 * while filing one walks a path, O(log n).
 *
 * The N dummies stand as N hogs do: spread evenly over one turn (2 ms) of
 * the timeline, in the order they will run; the enqueued task lands at a
 * random place within that turn, as a woken one does. Each figure is the
 * median of REPS runs, interrupts off, less two TSC reads. The dummies are
 * in no task list and their runqueue is no CPU's: the real scheduler never
 * sees them. (The cost of a real switch is user/workloads/schedcost's.)
 */
#include "kernel/debug/ktest.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "sched/debug.h"
#include "sched/api.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/time.h"
#include "lib/sort.h"
#include "lib/util.h"

#define LEVELS    4                       /* N = 10, 100, 1000, 10000 */
#define REPS      401
#define CHARGE_NS 2000000ULL              /* a turn: the default granularity */

enum { PICK, PUT, ENQUEUE, DEQUEUE, FIGURES };

struct level {
	void *mem;
	struct sched_cost *cost;
	int n;
	uint64_t samples[FIGURES][REPS];
};

static uint64_t tsc(void)
{
	return rdtsc();
}

/* A place within one turn of the timeline (xorshift, reproducible). */
static uint64_t random_place(uint64_t *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	return *seed % CHARGE_NS;
}

static uint64_t median(uint64_t *v)
{
	sort_u64(v, REPS);
	return v[REPS / 2];
}

static uint64_t tsc_overhead(void)
{
	uint64_t v[REPS];
	for (int i = 0; i < REPS; i++) {
		uint64_t flags = irq_save();
		uint64_t t0 = rdtsc();
		v[i] = rdtsc() - t0;
		irq_restore(flags);
	}
	return median(v);
}

static void time_one(struct level *l, int i, uint64_t overhead, uint64_t *seed)
{
	struct sched_cost_sample s;
	sched_cost_sample(l->cost, random_place(seed), CHARGE_NS, tsc, &s);
	uint64_t cycles[FIGURES] = { [PICK] = s.pick, [PUT] = s.put, [ENQUEUE] = s.enqueue, [DEQUEUE] = s.dequeue };
	for (int f = 0; f < FIGURES; f++)
		l->samples[f][i] = cycles[f] > overhead ? cycles[f] - overhead : 0;
}

/* The goal is a pick that costs the same with a thousand times more tasks;
 * the bound, 3 times, leaves room for the emulator's caches. */
KTEST(sched_cost, picking_the_next_task_does_not_grow_with_the_tasks)
{
	struct level *levels = kzalloc(LEVELS * sizeof(*levels));
	KASSERT(t, levels);
	bool ok = true;
	for (int k = 0, n = 10; k < LEVELS; k++, n *= 10) {
		levels[k].n = n;
		levels[k].mem = kmalloc(sched_cost_size(n));
		ok = ok && levels[k].mem;
		if (levels[k].mem)
			levels[k].cost = sched_cost_init(levels[k].mem, n, CHARGE_NS);
	}
	KEXPECT(t, ok);
	if (ok) {
		uint64_t overhead = tsc_overhead(), seed = 88172645463325252ULL, pick[LEVELS];
		/* A run of each N in turn: what drifts meanwhile drifts for all alike. */
		for (int i = 0; i < REPS; i++)
			for (int k = 0; k < LEVELS; k++)
				time_one(&levels[k], i, overhead, &seed);
		for (int k = 0; k < LEVELS; k++) {
			uint64_t figure[FIGURES];
			for (int f = 0; f < FIGURES; f++)
				figure[f] = median(levels[k].samples[f]);
			pick[k] = figure[PICK];
			pr_info("  # %5d tasks: pick %llu, put %llu, enqueue %llu, dequeue %llu cycles", levels[k].n,
				(unsigned long long)figure[PICK], (unsigned long long)figure[PUT],
				(unsigned long long)figure[ENQUEUE], (unsigned long long)figure[DEQUEUE]);
		}
		unsigned long long ratio100 = pick[LEVELS - 1] * 100 / MAX(pick[0], 1);
		pr_info("  # pick at 10,000 / at 10: %llu.%02llu", ratio100 / 100, ratio100 % 100);
		/* The same figures as a workload's line, for tools/sched_ab.py: KTAP
		 * takes it for other output, tools/results.py reads it. */
		pr_info("RESULT name=sched_cost class=%s pick_10=%llu pick_100=%llu pick_1000=%llu pick_10000=%llu "
			"ratio=%llu.%02llu", sched_selected(), (unsigned long long)pick[0],
			(unsigned long long)pick[1], (unsigned long long)pick[2], (unsigned long long)pick[3],
			ratio100 / 100, ratio100 % 100);
		KEXPECT(t, pick[LEVELS - 1] <= 3 * MAX(pick[0], 1));
	}
	for (int k = 0; k < LEVELS; k++)
		kfree(levels[k].mem);
	kfree(levels);
}
