/*
 * ring_test - a ring of processes passing a token: are the hogs beside it starved?
 *
 * tasks processes form a ring of pipes. Each sleeps reading its pipe until
 * the token (a byte) arrives, computes work_us of its own CPU time, writes
 * the token into the next one's pipe and sleeps again: one hop. hogs
 * nice-0 hogs share the CPU (cpu=; -1 leaves every process free to move).
 * Every ring member sleeps almost all the time, so a scheduler that rewards
 * sleepers sees a ring of interactive processes and lets it starve the
 * hogs. Under a fair one the ring, of which one member at a time is
 * runnable, counts as one process: with H hogs on one CPU each hog's fair
 * share is 1 / (H + 1).
 *
 *     hops_per_s = hops in the measured interval / its length
 *     hog_share  = the smallest hog's CPU time / the interval
 *     ring_share = the ring members' CPU time, summed / the interval
 *     hog_ratio  = hog_share / fair
 *     max_wait_us = the longest a member waited between being handed the
 *                   token and running (its wake-up latency)
 *
 *   tasks=N      ring members                                (default 100)
 *   hogs=H       nice-0 hogs beside the ring                 (default 1)
 *   work_us=W    CPU time per hop                            (default 0)
 *   cpu=C        the CPU of all of them, -1 = not pinned     (default 0)
 *   ms=T         measured interval                           (default 8000)
 *   warmup_ms=X  run time before measuring                   (default 500)
 *
 *   RESULT name=ring_test cpu=0 tasks=100 hogs=1 work_us=0 ms=8000
 *          hops=... hops_per_s=... ring_share=... hog_share=... fair=0.5000
 *          hog_ratio=... max_wait_us=... via=pipe
 *
 * Like the 2007 ring-test.c (source lost; ../shared/reference/scheduler-facts.md
 * §6) the token goes through pipes (via=pipe). With cpu=-1 the fair share
 * assumes the hogs and the ring fill all CPUs.
 */
#include "probe.h"

#include <unistd.h>

#define MAX_TASKS 2000
#define MAX_HOGS  16

enum { TASKS, HOGS, WORK_US, CPU, MS, WARMUP_MS, NPARAMS };

static struct param params[NPARAMS] = {
	[TASKS]     = { "tasks", 100, 2, MAX_TASKS, "ring members" },
	[HOGS]      = { "hogs", 1, 0, MAX_HOGS, "nice-0 hogs beside the ring" },
	[WORK_US]   = { "work_us", 0, 0, 1000000, "CPU time per hop, in us" },
	[CPU]       = { "cpu", 0, -1, MAX_CPU, "the CPU of all of them (-1: not pinned)" },
	[MS]        = { "ms", 8000, 10, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
};

/* In shared memory; only the token's holder writes it. */
struct ring {
	uint64_t work;                    /* ns */
	volatile uint64_t passed_at;      /* now_ns() when the token was handed over */
	volatile uint64_t max_wait;       /* ns */
};

struct member {
	struct ring *ring;
	struct counter *hops;             /* this member's, in shared memory */
	int in, out;                      /* its pipe's read end, the next one's write end */
};

/* Wait for the token, note how long it took us, work, pass it on. The
 * members are killed at the end, with the token somewhere in the ring. */
static void member_body(void *arg)
{
	const struct member *m = arg;
	struct ring *ring = m->ring;
	char token;
	for (;;) {
		ssize_t got = read(m->in, &token, 1);
		if (got == 0)
			return;           /* the member before us was killed: the end */
		if (got < 0)
			die_errno("read the token");
		uint64_t waited = now_ns() - ring->passed_at;
		if (waited > ring->max_wait)
			ring->max_wait = waited;
		burn_cpu_ns(ring->work);
		m->hops->n++;
		ring->passed_at = now_ns();
		if (write(m->out, &token, 1) != 1)
			die_errno("pass the token");
	}
}

/* Fork the members, member i reading pipe i and writing pipe i + 1 (the
 * last one pipe 0), creating each pipe just before it is needed: the
 * parent holds a few descriptors at a time, not a whole ring's. Member 0
 * finds the token waiting. */
static void spawn_ring(pid_t *pids, struct counter *hops, int n, int cpu, struct ring *ring,
		       struct gate *g)
{
	int first[2];
	if (pipe(first) != 0)
		die_errno("pipe");
	char token = 't';
	if (write(first[1], &token, 1) != 1)
		die_errno("write the token");
	int in = first[0];
	for (int i = 0; i < n; i++) {
		int next[2] = { -1, first[1] };       /* the last member writes into pipe 0 */
		if (i < n - 1 && pipe(next) != 0)
			die_errno("pipe");
		struct member m = { ring, &hops[i], in, next[1] };
		pids[i] = spawn(member_body, &m, cpu, 0, g);
		close(in);
		close(next[1]);
		in = next[0];
	}
}

int main(int argc, char **argv)
{
	params_parse("ring_test", "a ring of processes passing a token beside hogs: throughput, hog share",
		     argc, argv, params, NPARAMS);
	int tasks = (int)params[TASKS].value, hogs = (int)params[HOGS].value;
	int cpu = (int)params[CPU].value;
	check_cpu("cpu", cpu);

	/* Children 0..hogs-1 are the hogs, the ring members follow. */
	static pid_t pids[MAX_HOGS + MAX_TASKS];
	static uint64_t counts[MAX_HOGS + MAX_TASKS], cpu_ns[MAX_HOGS + MAX_TASKS];
	int n = hogs + tasks;
	struct counter *counters = shared_alloc((size_t)n * sizeof(*counters));
	struct ring *ring = shared_alloc(sizeof(*ring));
	ring->work = (uint64_t)params[WORK_US].value * 1000;
	struct gate gate;
	gate_init(&gate);
	spawn_hogs(pids, counters, hogs, cpu, &gate);
	spawn_ring(pids + hogs, counters + hogs, tasks, cpu, ring, &gate);
	int ncpus = online_cpus();
	pin_to_cpu(cpu >= 0 && ncpus > 1 ? (cpu + 1) % ncpus : -1);
	ring->passed_at = now_ns();
	gate_open(&gate);

	sleep_ms(params[WARMUP_MS].value);
	ring->max_wait = 0;
	uint64_t interval = measure_children(pids, counters, n, params[MS].value, counts, cpu_ns);
	uint64_t max_wait = ring->max_wait;
	stop_children(pids, n);

	uint64_t hops = 0, ring_ns = 0, hog_ns = UINT64_MAX;
	for (int i = hogs; i < n; i++) {
		hops += counts[i];
		ring_ns += cpu_ns[i];
	}
	for (int i = 0; i < hogs; i++)
		hog_ns = cpu_ns[i] < hog_ns ? cpu_ns[i] : hog_ns;
	/* One CPU: the ring counts as one process. Free: hogs + 1 on all CPUs. */
	double cpus = cpu >= 0 ? 1 : ncpus, fair = cpus / (hogs + 1);
	fair = fair > 1 ? 1 : fair;
	double hog_share = (double)hog_ns / (double)interval;

	result_begin();
	result_add("cpu=%d tasks=%d hogs=%d work_us=%ld ms=%ld hops=%lu", cpu, tasks, hogs,
		   params[WORK_US].value, params[MS].value, (unsigned long)hops);
	result_add("hops_per_s=%.0f ring_share=%.4f", (double)hops * 1e9 / (double)interval,
		   (double)ring_ns / (double)interval);
	if (hogs > 0)
		result_add("hog_share=%.4f fair=%.4f hog_ratio=%.3f", hog_share, fair, hog_share / fair);
	result_us("max_wait_us", max_wait);
	result_add("via=pipe");
	result_end();
	return 0;
}
