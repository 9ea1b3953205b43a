/*
 * The latency probe, hogs and microseconds of probe.h.
 */
#include "probe.h"

#include <stdio.h>

#define MAX_SAMPLES (1 << 20)             /* 8 MB of them */

/* Sleep to each deadline in turn and note how late we woke. A wake-up later
 * than a whole period skips the deadlines it missed instead of bunching up
 * behind them. Runs until killed. */
static void probe_body(void *arg)
{
	struct probe *p = arg;
	uint64_t deadline = now_ns();
	for (;;) {
		deadline += p->period;
		sleep_until_ns(deadline);
		uint64_t late = now_ns() - deadline;
		if (late >= p->period)
			deadline += late;
		if (p->n < p->room) {
			p->late[p->n] = late;
			p->n++;           /* only now: a kill in between loses the sample */
		}
		if (late > p->max)
			p->max = late;
	}
}

struct probe *probe_start(int cpu, long period_us, long ms, struct gate *g)
{
	size_t room = (size_t)(ms * 1000 / period_us) + 16;
	room = room < MAX_SAMPLES ? room : MAX_SAMPLES;
	struct probe *p = shared_alloc(sizeof(*p) + room * sizeof(p->late[0]));
	p->period = (uint64_t)period_us * 1000;
	p->room = room;
	p->pid = spawn(probe_body, p, cpu, 0, g);
	return p;
}

void probe_stop(struct probe *p)
{
	stop_children(&p->pid, 1);
	sort_u64(p->late, p->n);
}

void probe_report(const struct probe *p)
{
	if (p->n > 0) {
		result_us("probe_p50_us", percentile(p->late, p->n, 50));
		result_us("probe_p99_us", percentile(p->late, p->n, 99));
	}
	result_us("probe_max_us", p->max);
	result_add("probe_samples=%zu", p->n);
}

void spawn_hogs(pid_t *pids, struct counter *counters, int n, int cpu, struct gate *g)
{
	static struct counter uncounted;  /* each hog bumps its own copy */
	for (int i = 0; i < n; i++)
		pids[i] = spawn(hog, counters ? &counters[i] : &uncounted, cpu, 0, g);
}

void result_us(const char *key, uint64_t ns)
{
	result_add("%s=%.1f", key, (double)ns / 1e3);
}
