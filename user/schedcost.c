/*
 * schedcost - what one scheduling decision costs with 10 to 10,000 tasks.
 *
 * The fair class keeps its runnable tasks in a red-black tree by vruntime
 * and caches the leftmost node, so filing a task (enqueue) or unfiling it
 * (dequeue) walks one path of the tree, O(log n), while finding the next
 * task is one load. This measures that on the class itself: for N = 10,
 * 100, 1000 and 10000 it files N dummy tasks on a private runqueue and times,
 * in TSC cycles, the struct sched_class methods as the core calls them
 * (sched_cost_sample(), sched/cost.c). The N tasks stand as N hogs do: spread evenly over one turn (2 ms,
 * the default granularity) of the timeline, in the order they will run.
 *
 *     enqueue   enqueue_task of one more task, at a random place within that
 *               turn (where a woken task lands)
 *     dequeue   dequeue_task of it again
 *     pick      pick_next_task: take the leftmost (cached) out of the
 *               tree to run it
 *     put       put_prev_task of the task it picked, charged a turn in
 *               between, so it goes back behind all the others, as a hog
 *               does: the filing half of a decision, O(log n) like enqueue
 *
 * Each figure is the median of reps runs, each with interrupts off and the
 * runqueue's lock held, less the cost of reading the TSC twice. 10,000 real
 * tasks would need 10,000 kernel stacks (there are 4096), hence dummies.
 * They never become visible to the real scheduler: they are not made by
 * task_create(), so no task list (for_each_task, sched_debug) holds them,
 * and the runqueue they are filed on is no CPU's, so neither the balancer
 * nor a wake-up nor a tick ever looks at it. The fair class only reads the
 * runqueue it is handed and the sysctls.
 *
 * The time of a real context switch is measured once as well: two tasks
 * pinned to cpu= take turns through sched_yield(), and the switches are
 * counted by the scheduler's own statistics (nr_switches).
 *
 *   reps=R      timed runs per figure                        (default 2001)
 *   switches=S  sched_yield() calls of each of the two tasks (default 20000)
 *   cpu=C       their CPU                                    (default 0)
 *
 *   RESULT name=schedcost tasks=N pick_cycles=... put_cycles=...
 *          enqueue_cycles=... dequeue_cycles=...      (one line per N)
 *   RESULT name=schedcost ratio=pick(10000)/pick(10) tsc_overhead=...
 *          switch_cycles=... switch_ns=... switches=...
 *
 * The goal is ratio <= 2: choosing the next task costs about the same with
 * a thousand times more tasks; filing tasks grows as log n. There is no
 * Linux program to compare with.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/api.h"
#include "sched/debug.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/time.h"
#include "lib/sort.h"

#define LEVELS    4                       /* N = 10, 100, 1000, 10000 */
#define CHARGE_NS 2000000ULL              /* a turn: the default granularity */

enum { REPS, SWITCHES, CPU };

static const struct workload_param schedcost_params[] = {
	[REPS]     = { "reps", 2001, 11, 20001, "timed runs per figure (median)" },
	[SWITCHES] = { "switches", 20000, 10, 10000000, "sched_yield() calls of each of the two tasks" },
	[CPU]      = { "cpu", 0, 0, MAX_CPUS - 1, "the CPU of the switching pair" },
};

enum { PICK, PUT, ENQUEUE, DEQUEUE, FIGURES };

/* One N: its private runqueue and dummies (sched_cost_init()). */
struct level {
	void *mem;
	struct sched_cost *cost;
	int n;
	uint64_t *samples[FIGURES];
};

struct bench {
	struct level level[LEVELS];
	int64_t reps;
	uint64_t overhead;                /* cycles of two back-to-back TSC reads */
	uint64_t seed;
};

/* A place within one turn of the timeline (xorshift, reproducible). */
static uint64_t random_place(struct bench *b)
{
	b->seed ^= b->seed << 13;
	b->seed ^= b->seed >> 7;
	b->seed ^= b->seed << 17;
	return b->seed % CHARGE_NS;
}

/* 0, or -1 if out of memory. The N tasks are spread evenly over one turn. */
static int level_init(struct level *l, int n, int64_t reps)
{
	l->n = n;
	l->mem = kmalloc(sched_cost_size(n));
	bool ok = l->mem;
	for (int f = 0; f < FIGURES; f++) {
		l->samples[f] = kmalloc((size_t)reps * sizeof(uint64_t));
		ok = ok && l->samples[f];
	}
	if (!ok)
		return -1;
	l->cost = sched_cost_init(l->mem, n, CHARGE_NS);
	return 0;
}

static void level_free(struct level *l)
{
	for (int f = 0; f < FIGURES; f++)
		kfree(l->samples[f]);
	kfree(l->mem);
}

static uint64_t minus_overhead(const struct bench *b, uint64_t cycles)
{
	return cycles > b->overhead ? cycles - b->overhead : 0;
}

static uint64_t tsc(void)
{
	return rdtsc();
}

/* Run i of each figure on l's tree as it stands. */
static void time_one(struct bench *b, struct level *l, int64_t i)
{
	struct sched_cost_sample s;
	sched_cost_sample(l->cost, random_place(b), CHARGE_NS, tsc, &s);
	l->samples[ENQUEUE][i] = minus_overhead(b, s.enqueue);
	l->samples[DEQUEUE][i] = minus_overhead(b, s.dequeue);
	l->samples[PICK][i] = minus_overhead(b, s.pick);
	l->samples[PUT][i] = minus_overhead(b, s.put);
}

static uint64_t median(uint64_t *v, int64_t n)
{
	sort_u64(v, (size_t)n);
	return v[n / 2];
}

static uint64_t tsc_overhead(struct bench *b)
{
	uint64_t *v = b->level[0].samples[PICK];
	for (int64_t i = 0; i < b->reps; i++) {
		uint64_t flags = irq_save();
		uint64_t t0 = rdtsc();
		v[i] = rdtsc() - t0;
		irq_restore(flags);
	}
	return median(v, b->reps);
}

/* Print l's medians; returns the pick median. */
static uint64_t report_level(struct bench *b, struct level *l)
{
	uint64_t figure[FIGURES];
	for (int f = 0; f < FIGURES; f++)
		figure[f] = median(l->samples[f], b->reps);
	struct result r;
	result_begin(&r, "schedcost");
	result_add(&r, "tasks=%d pick_cycles=%llu put_cycles=%llu enqueue_cycles=%llu dequeue_cycles=%llu reps=%lld",
		   l->n, (unsigned long long)figure[PICK], (unsigned long long)figure[PUT], (unsigned long long)figure[ENQUEUE],
		   (unsigned long long)figure[DEQUEUE], (long long)b->reps);
	result_print(&r);
	return figure[PICK];
}

/* All N side by side, a run of each in turn: whatever drifts while we
 * measure (under QEMU, the emulator's own caches) drifts for every N alike. */
static uint64_t measure_levels(struct bench *b)
{
	for (int64_t i = 0; i < b->reps; i++)
		for (int k = 0; k < LEVELS; k++)
			time_one(b, &b->level[k], i);
	uint64_t first = report_level(b, &b->level[0]), last = first;
	for (int k = 1; k < LEVELS; k++)
		last = report_level(b, &b->level[k]);
	return mul_div(last, 100, first);
}

/* --- A real switch --------------------------------------------------------- */

struct yielder {
	int64_t count;
	uint64_t switches;                /* switches into this task while it yielded */
	uint64_t start, end;              /* TSC */
};

static void yield_main(void *arg)
{
	struct yielder *y = arg;
	struct task *me = current_task();
	uint64_t before = me->stats.nr_switches;
	y->start = rdtsc();
	for (int64_t i = 0; i < y->count; i++)
		sched_yield();
	y->end = rdtsc();
	y->switches = me->stats.nr_switches - before;
}

/* Cycles per switch between two tasks taking turns on cpu; 0 if out of memory. */
static uint64_t switch_cycles(int cpu, int64_t count, uint64_t *switches)
{
	struct yielder y[2] = { { .count = count }, { .count = count } };
	struct task *t[2];
	for (int i = 0; i < 2; i++) {
		t[i] = task_create("yielder", yield_main, &y[i]);
		if (!t[i]) {
			pr_err("schedcost: out of memory for the switching pair");
			if (i == 1) {
				task_start(t[0]);
				task_join(t[0]);
			}
			return 0;
		}
		pin_task(t[i], cpu);
	}
	task_start(t[0]);
	task_start(t[1]);
	task_join(t[0]);
	task_join(t[1]);
	uint64_t start = y[0].start < y[1].start ? y[0].start : y[1].start;
	uint64_t end = y[0].end > y[1].end ? y[0].end : y[1].end;
	*switches = y[0].switches + y[1].switches;
	return *switches ? div_round(end - start, *switches) : 0;
}

static int run_schedcost(const int64_t *v)
{
	if (check_cpu("schedcost", "cpu", v[CPU]) < 0)
		return -1;
	struct bench b = { .reps = v[REPS], .seed = 88172645463325252ULL };
	int ok = 0;
	for (int k = 0, n = 10; k < LEVELS; k++, n *= 10)
		ok |= level_init(&b.level[k], n, b.reps);
	if (ok < 0) {
		pr_err("schedcost: out of memory for the dummy tasks");
	} else {
		b.overhead = tsc_overhead(&b);
		uint64_t ratio = measure_levels(&b);
		uint64_t switches = 0, cycles = switch_cycles((int)v[CPU], v[SWITCHES], &switches);
		struct result r;
		result_begin(&r, "schedcost");
		result_fixed(&r, "ratio", ratio, 2);
		result_add(&r, "tsc_overhead=%llu switch_cycles=%llu", (unsigned long long)b.overhead,
			   (unsigned long long)cycles);
		result_fixed(&r, "switch_ns", mul_div(cycles, NS_PER_S, tsc_hz()), 0);
		result_add(&r, "switches=%llu", (unsigned long long)switches);
		result_print(&r);
		ok = cycles > 0 ? 0 : -1;
	}
	for (int k = 0; k < LEVELS; k++)
		level_free(&b.level[k]);
	return ok;
}

WORKLOAD(schedcost, "TSC cycles per fair-class pick, enqueue, dequeue with 10..10000 tasks; one switch",
	 schedcost_params, run_schedcost);
