/*
 * massive_intr - many processes that mostly compute but sleep often.
 *
 * Modelled on the massive_intr test of the 2007 scheduler debates: N
 * processes each repeat "compute for about 8 ms, sleep about 1 ms" and
 * count how many times they got round. A scheduler that rewards sleepers
 * with heuristics can let some of them starve the others; a fair one gives
 * every process nearly the same count.
 *
 * "Compute for 8 ms" is a fixed amount of work: first the loops per
 * millisecond of an idle CPU are measured (best of five 20 ms runs), and
 * every process then burns work_ms times that. After a warm-up the program
 * measures how many rounds each process makes in ms milliseconds:
 *
 *     spread = max count / min count     (1.000 is perfectly even)
 *
 *   procs=N      number of processes, up to 1024            (default 10)
 *   ms=T         measured interval in ms                    (default 10000)
 *   warmup_ms=W  run time before measuring, in ms           (default 500)
 *   work_ms=X    computation per round, in ms of idle CPU   (default 8)
 *   sleep_ms=Y   sleep per round, in ms                     (default 1)
 *
 *   RESULT name=massive_intr procs=10 ms=10000 work_ms=8 sleep_ms=1
 *          loops_per_ms=... min=... avg=... max=... spread=...
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

enum { PROCS, MS, WARMUP_MS, WORK_MS, SLEEP_MS, NPARAMS };

static struct param params[NPARAMS] = {
	[PROCS]     = { "procs", 10, 1, 1024, "number of processes" },
	[MS]        = { "ms", 10000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[WORK_MS]   = { "work_ms", 8, 1, 10000, "computation per round, in ms of idle CPU" },
	[SLEEP_MS]  = { "sleep_ms", 1, 0, 10000, "sleep per round, in ms" },
};

static uint64_t work_loops;              /* per round; set before the fork */

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
	const uint64_t chunk = 10000, run_ns = 20000000;
	uint64_t best = 0;
	for (int run = 0; run < 5; run++) {
		uint64_t loops = 0, start = now_ns(), elapsed;
		do {
			burn(chunk);
			loops += chunk;
			elapsed = now_ns() - start;
		} while (elapsed < run_ns);
		uint64_t per_ms = loops * 1000000u / elapsed;
		best = per_ms > best ? per_ms : best;
	}
	return best;
}

/* A child's life: work, sleep, count a round. */
static void work_and_sleep(void *counter)
{
	struct counter *rounds = counter;
	for (;;) {
		burn(work_loops);
		sleep_ms(params[SLEEP_MS].value);
		rounds->n++;
	}
}

int main(int argc, char **argv)
{
	params_parse("massive_intr", "processes that work ~8 ms and sleep ~1 ms: treated alike?", argc,
		     argv, params, NPARAMS);
	int procs = (int)params[PROCS].value;
	uint64_t loops_per_ms = calibrate();
	work_loops = loops_per_ms * (uint64_t)params[WORK_MS].value;

	struct counter *counters = shared_alloc((size_t)procs * sizeof(*counters));
	pid_t *pids = malloc((size_t)procs * sizeof(*pids));
	uint64_t *rounds = malloc((size_t)procs * sizeof(*rounds));
	if (!pids || !rounds)
		die("out of memory for %d processes", procs);
	struct gate gate;
	gate_init(&gate);
	for (int i = 0; i < procs; i++)
		pids[i] = spawn(work_and_sleep, &counters[i], -1, 0, &gate);
	gate_open(&gate);
	sleep_ms(params[WARMUP_MS].value);
	measure_children(pids, counters, procs, params[MS].value, rounds, NULL);
	stop_children(pids, procs);

	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
	for (int i = 0; i < procs; i++) {
		lo = rounds[i] < lo ? rounds[i] : lo;
		hi = rounds[i] > hi ? rounds[i] : hi;
		sum += rounds[i];
	}

	result_begin();
	result_add("procs=%d ms=%ld work_ms=%ld sleep_ms=%ld", procs, params[MS].value,
		   params[WORK_MS].value, params[SLEEP_MS].value);
	result_add("loops_per_ms=%llu", (unsigned long long)loops_per_ms);
	result_add("min=%llu avg=%.1f max=%llu", (unsigned long long)lo, (double)sum / procs,
		   (unsigned long long)hi);
	result_add("spread=%.3f", lo ? (double)hi / (double)lo : INFINITY);   /* no round: inf */
	result_end();
	return 0;
}
