/*
 * ring_test - a ring of tasks passing a token: are the hogs beside it starved?
 *
 * tasks tasks form a ring. Each sleeps on its own wait queue until the token
 * reaches it, computes work_us of its own CPU time, hands the token to the
 * next and sleeps again: one hop. hogs nice-0 hogs share the CPU (cpu=;
 * -1 leaves every task free to move). Every ring member sleeps almost all
 * the time, so a scheduler that rewards sleepers sees a ring of interactive
 * tasks and lets it starve the hogs. Under a fair one the ring, of which one
 * member at a time is runnable, counts as one task: with H hogs on one CPU
 * each hog's fair share is 1 / (H + 1).
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
 *          hops=... hops_per_s=... ring_share=... hog_share=... fair=0.5000 hog_ratio=...
 *          max_wait_us=... via=waitqueue
 *
 * The 2007 ring-test.c (source lost; ../shared/reference/scheduler-facts.md
 * §6) passed the token through pipes; here it goes through wait queues.
 * With cpu=-1 the fair share assumes the hogs and the ring fill all CPUs.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"

#define MAX_HOGS 16

enum { TASKS, HOGS, WORK_US, CPU, MS, WARMUP_MS };

static const struct workload_param ring_test_params[] = {
	[TASKS]     = { "tasks", 100, 2, 2000, "ring members" },
	[HOGS]      = { "hogs", 1, 0, MAX_HOGS, "nice-0 hogs beside the ring" },
	[WORK_US]   = { "work_us", 0, 0, 1000000, "CPU time per hop, in us" },
	[CPU]       = { "cpu", 0, -1, MAX_CPUS - 1, "the CPU of all of them (-1: not pinned)" },
	[MS]        = { "ms", 8000, 10, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
};

struct ring {
	struct wait_queue *wq;            /* member i sleeps on wq[i] */
	volatile int holder;              /* who has the token */
	volatile uint64_t passed_at;      /* clock_ns() when it was handed over */
	volatile uint64_t hops;
	uint64_t max_wait;                /* ns; written by the holder only */
	uint64_t work;                    /* ns */
};

static void member_body(struct worker *w)
{
	struct ring *ring = (struct ring *)w->crew->arg;
	int me = (int)(w - w->crew->workers), n = w->crew->n;
	for (;;) {
		wait_event(&ring->wq[me], ring->holder == me || w->crew->stop);
		if (w->crew->stop)
			return;
		uint64_t waited = clock_ns() - ring->passed_at;
		ring->max_wait = waited > ring->max_wait ? waited : ring->max_wait;
		if (ring->work)
			burn_cpu_ns(ring->work);
		ring->hops++;
		ring->passed_at = clock_ns();
		ring->holder = (me + 1) % n;
		wake_up_one(&ring->wq[(me + 1) % n]);
	}
}

static int run_ring_test(const int64_t *v)
{
	int tasks = (int)v[TASKS], hogs = (int)v[HOGS], cpu = (int)v[CPU];
	if (check_cpu("ring_test", "cpu", cpu) < 0)
		return -1;
	struct ring ring = { .work = (uint64_t)v[WORK_US] * NS_PER_US };
	ring.wq = kmalloc((size_t)tasks * sizeof(struct wait_queue));
	struct crew members, hogcrew;
	if (!ring.wq) {
		pr_err("ring_test: out of memory");
		return -1;
	}
	for (int i = 0; i < tasks; i++)
		wait_queue_init(&ring.wq[i], "ring");
	if (crew_create(&members, tasks, "ring", member_body, &ring) < 0) {
		kfree(ring.wq);
		return -1;
	}
	if (crew_create(&hogcrew, hogs, "hog", hog_body, NULL) < 0) {
		crew_stop(&members);          /* never started: they see stop at once */
		kfree(ring.wq);
		return -1;
	}
	for (int i = 0; i < tasks; i++)
		pin_task(members.workers[i].task, cpu);
	for (int i = 0; i < hogs; i++)
		pin_task(hogcrew.workers[i].task, cpu);
	int ncpus = online_cpus();
	cpumask_t saved = pin_self(cpu >= 0 && ncpus > 1 ? (cpu + 1) % ncpus : -1);

	uint64_t before[MAX_HOGS], after[MAX_HOGS];
	ring.passed_at = clock_ns();      /* member 0 holds the token from the start */
	crew_start(&members);
	crew_start(&hogcrew);
	sleep_ms((uint64_t)v[WARMUP_MS]);
	uint64_t t0 = clock_ns(), hops0 = ring.hops;
	ring.max_wait = 0;
	crew_runtimes(&hogcrew, before);
	uint64_t ring_before = crew_total_runtime(&members);
	sleep_ms((uint64_t)v[MS]);
	crew_runtimes(&hogcrew, after);
	uint64_t ring_time = crew_total_runtime(&members) - ring_before;
	uint64_t interval = clock_ns() - t0, hops = ring.hops - hops0, max_wait = ring.max_wait;

	/* Stop the ring: every member is asleep but the holder, which sees stop. */
	members.stop = true;
	for (int i = 0; i < tasks; i++)
		wake_up_one(&ring.wq[i]);
	crew_stop(&members);
	crew_stop(&hogcrew);
	restore_affinity(saved);
	kfree(ring.wq);

	uint64_t hog_share = UINT64_MAX;
	for (int i = 0; i < hogs; i++) {
		uint64_t share = mul_div(after[i] - before[i], PPB, interval);
		hog_share = share < hog_share ? share : hog_share;
	}
	/* One CPU: the ring counts as one task. Free: hogs + 1 tasks on all CPUs. */
	uint64_t cpus = cpu >= 0 ? 1 : (uint64_t)ncpus, fair = mul_div(cpus, PPB, (uint64_t)hogs + 1);
	fair = fair > PPB ? PPB : fair;

	struct result r;
	result_begin(&r, "ring_test");
	result_add(&r, "cpu=%d tasks=%d hogs=%d work_us=%lld ms=%lld hops=%llu", cpu, tasks, hogs,
		   (long long)v[WORK_US], (long long)v[MS], (unsigned long long)hops);
	result_fixed(&r, "hops_per_s", mul_div(hops, NS_PER_S, interval), 0);
	result_fixed(&r, "ring_share", div_round(mul_div(ring_time, PPB, interval), PPB / 10000), 4);
	if (hogs > 0) {
		result_fixed(&r, "hog_share", div_round(hog_share, PPB / 10000), 4);
		result_fixed(&r, "fair", div_round(fair, PPB / 10000), 4);
		result_ratio(&r, "hog_ratio", hog_share, fair, 3);
	}
	result_us(&r, "max_wait_us", max_wait);
	result_add(&r, "via=waitqueue");
	result_print(&r);
	return 0;
}

WORKLOAD(ring_test, "a ring of 100 tasks passing a token beside hogs: throughput, hog share", ring_test_params,
	 run_ring_test);
