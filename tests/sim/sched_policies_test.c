/*
 * The scheduler's exact properties, checked in the simulator (tests/sim/):
 * the real sched/ code, simulated CPUs and clock.
 */
#include "tests/host/lib.h"
#include <stdio.h>
#include <stdlib.h>
#include "tests/host/test.h"
#include "tests/sim/sim.h"
#include "sched/api.h"
#include "sched/check.h"
#include "sched/fair.h"
#include "kernel/errno.h"

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

static void expect_consistent(int ncpus)
{
	char why[160];
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!sched_check_cpu(cpu, why, sizeof(why)))
			test_fail(__FILE__, __LINE__, "cpu%d: %s", cpu, why);
	}
}

static void start_hogs(struct sim_task **h, int n, int on_cpu)
{
	for (int i = 0; i < n; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_start(h[i], on_cpu);
	}
}

/* Runtime each task receives over `ns`, after a settling second. */
static void measure(struct sim_task **t, int n, uint64_t ns, uint64_t *got)
{
	uint64_t before[SIM_MAX_TASKS];
	sim_run(SIM_S);
	for (int i = 0; i < n; i++)
		before[i] = sim_runtime(t[i]);
	sim_run(ns);
	for (int i = 0; i < n; i++)
		got[i] = sim_runtime(t[i]) - before[i];
}

TEST(sched_three_hogs_share_one_cpu_equally)
{
	struct sim_task *h[3];
	uint64_t got[3];
	sim_reset(1, 1000);
	start_hogs(h, 3, 0);
	measure(h, 3, 10 * SIM_S, got);
	for (int i = 0; i < 3; i++) {
		double s = share(got[i], 10 * SIM_S);
		if (s < (1.0 / 3) * 0.995 || s > (1.0 / 3) * 1.005)
			test_fail(__FILE__, __LINE__, "hog %d got %.4f of the CPU, not 1/3 within 0.5%%", i, s);
	}
	expect_consistent(1);
}

TEST(sched_nice_0_vs_5_splits_by_weight)
{
	struct sim_task *h[2];
	uint64_t got[2];
	sim_reset(1, 1000);
	for (int i = 0; i < 2; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_set_policy(h[i], SCHED_NORMAL, 0, i ? 5 : 0);
		sim_start(h[i], 0);
	}
	measure(h, 2, 10 * SIM_S, got);
	double ratio = (double)got[0] / (double)got[1], ideal = 1024.0 / 335;
	if (ratio < ideal * 0.99 || ratio > ideal * 1.01)
		test_fail(__FILE__, __LINE__, "nice 0 / nice 5 = %.4f, not %.4f within 1%%", ratio, ideal);
}

TEST(sched_fifo_runs_in_priority_order)
{
	static const int prios[3] = { 10, 30, 20 };
	struct sim_task *t[3];
	sim_reset(1, 1000);
	for (int i = 0; i < 3; i++) {
		t[i] = sim_task("fifo", 5 * SIM_MS, 1000 * SIM_S);
		sim_set_policy(t[i], SCHED_FIFO, prios[i], 0);
		sim_start(t[i], 0);
	}
	sim_run(100 * SIM_MS);
	/* 30 first, then 20, then 10, each running its whole 5 ms. */
	EXPECT(t[1]->first_run_at < t[2]->first_run_at);
	EXPECT(t[2]->first_run_at < t[0]->first_run_at);
	EXPECT_EQ_UINT(t[2]->first_run_at - t[1]->first_run_at, 5 * SIM_MS);
	EXPECT_EQ_UINT(t[0]->first_run_at - t[2]->first_run_at, 5 * SIM_MS);
}

TEST(sched_rr_rotates_every_slice)
{
	struct sim_task *t[2];
	uint64_t got[2];
	sim_reset(1, 1000);
	sim_sysctl("sched_rr_timeslice_ms", 20);
	for (int i = 0; i < 2; i++) {
		t[i] = sim_task("rr", 0, 0);
		sim_set_policy(t[i], SCHED_RR, 10, 0);
		sim_start(t[i], 0);
	}
	sim_run(SIM_S);
	int switches_before = sim_switches(0);
	measure(t, 2, 2 * SIM_S, got);
	int switches = sim_switches(0) - switches_before;
	/* 3 s at a 20 ms slice: 150 rotations (fewer while RT is throttled, 5%),
	 * and the two split what RT may use equally. */
	EXPECT(switches >= 135 && switches <= 151);
	double ratio = (double)got[0] / (double)got[1];
	EXPECT(ratio > 0.98 && ratio < 1.02);
}

TEST(sched_rt_hog_is_throttled_to_95_percent)
{
	struct sim_task *t[2];
	uint64_t got[2];
	sim_reset(1, 1000);
	t[0] = sim_task("rt-hog", 0, 0);
	sim_set_policy(t[0], SCHED_FIFO, 50, 0);
	t[1] = sim_task("fair-hog", 0, 0);
	sim_start(t[0], 0);
	sim_start(t[1], 0);
	measure(t, 2, 5 * SIM_S, got);
	double rt = share(got[0], 5 * SIM_S);
	if (rt < 0.945 || rt > 0.955)
		test_fail(__FILE__, __LINE__, "the RT hog got %.4f, not 0.95", rt);
	EXPECT(got[1] > 0);

	/* -1 lifts the limit: the fair hog starves. */
	sim_sysctl("sched_rt_runtime_us", -1);
	measure(t, 2, 2 * SIM_S, got);
	EXPECT_EQ_UINT(got[1], 0);
}

/* A hog runs; w becomes runnable `behind` ns behind it on the timeline.
 * check_preempt_curr must switch only beyond the wake-up granularity, and
 * never for SCHED_BATCH. (The hog's own progress since the last tick adds
 * up to half a tick here: the CPU's ticks fall at +0.5 ms.) */
static bool wakeup_preempts(int policy, int64_t behind)
{
	sim_reset(1, 1000);
	struct sim_task *hog = sim_task("hog", 0, 0);
	sim_start(hog, 0);
	sim_run(10 * SIM_MS);
	struct sim_task *w = sim_task("w", 0, 0);
	sim_set_policy(w, policy, 0, 0);
	struct rq *rq = sim_rq(0);
	sim_on_cpu(0);
	spin_lock(&rq->lock);
	update_rq_clock(rq);
	set_task_state(&w->task, TASK_RUNNING);
	activate_task(rq, &w->task, 0);
	w->task.se.vruntime = hog->task.se.vruntime - (uint64_t)behind;   /* alone in the tree: still valid */
	set_task_need_resched(&hog->task, false);
	check_preempt_curr(rq, &w->task);
	spin_unlock(&rq->lock);
	return task_need_resched(&hog->task);
}

TEST(sched_wakeup_preempts_only_beyond_granularity)
{
	sim_reset(1, 1000);
	int64_t gran = (int64_t)fair_wakeup_granularity_ns();
	EXPECT(!wakeup_preempts(SCHED_NORMAL, gran / 4));
	EXPECT(wakeup_preempts(SCHED_NORMAL, gran + gran / 2));
	EXPECT(!wakeup_preempts(SCHED_BATCH, gran * 3));
}

TEST(sched_tick_preempts_only_beyond_granularity)
{
	sim_reset(1, 1000);
	struct sim_task *h[2];
	start_hogs(h, 2, 0);
	sim_run(2 * SIM_S);
	int switches_before = sim_switches(0);
	sim_run(SIM_S);
	int switches = sim_switches(0) - switches_before;
	/* Each runs until it is a granularity ahead of the other, so a switch
	 * every ~granularity (whole ticks), never every tick. */
	int64_t gran_ms = sim_sysctl_get("sched_granularity_ns") / (int64_t)SIM_MS;
	int expected = (int)(1000 / (gran_ms + 1));
	if (switches < expected / 2 || switches > 1000 / 2)
		test_fail(__FILE__, __LINE__, "%d switches in 1 s with a %lld ms granularity", switches,
			  (long long)gran_ms);
}

TEST(sched_long_sleep_buys_bounded_credit)
{
	sim_reset(1, 1000);
	struct sim_task *hog = sim_task("hog", 0, 0);
	struct sim_task *s = sim_task("sleeper", 500 * SIM_MS, 10 * SIM_S);
	sim_start(hog, 0);
	sim_start(s, 0);
	sim_run(20 * SIM_S);                  /* slept 10 s, woke, ran 500 ms of CPU shared */
	/* After its long sleep it ran its 500 ms burst sharing the CPU with the
	 * hog: had the sleep bought it a monopoly, the hog would have starved. */
	uint64_t hog_before = sim_runtime(hog);
	uint64_t t0 = sim_now();
	while (task_state(&s->task) != TASK_RUNNING)
		sim_run(SIM_MS);
	uint64_t woke = sim_now();
	while (s->burst_left > 0 && task_state(&s->task) == TASK_RUNNING && sim_now() < woke + 5 * SIM_S)
		sim_run(SIM_MS);
	uint64_t hog_got = sim_runtime(hog) - hog_before - (woke - t0);
	int64_t credit_ms = 2 * sim_sysctl_get("sched_granularity_ns") / (int64_t)SIM_MS;
	/* The sleeper's burst took 500 ms of CPU; it may run ahead of the hog by
	 * its credit only, so the hog got at least 500 ms less that credit. */
	EXPECT(hog_got + (uint64_t)credit_ms * SIM_MS * 2 >= 500 * SIM_MS);
}

TEST(sched_tree_stays_valid_through_a_million_operations)
{
	enum { N = 100, OPS = 1000000 };
	struct sim_task *t[N];
	bool queued[N] = { false };
	sim_reset(1, 1000);
	struct rq *rq = sim_rq(0);
	for (int i = 0; i < N; i++) {
		t[i] = sim_task("t", 0, 0);
		sched_change_task(&t[i]->task, SCHED_NORMAL, 0, i % 40 - 20);
		set_task_cpu(&t[i]->task, 0);
	}
	uint64_t rnd = 88172645463325252ULL;
	char why[160];
	for (int op = 0; op < OPS && !test_failed(); op++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		int i = (int)(rnd % N);
		struct task *p = &t[i]->task;
		spin_lock(&rq->lock);
		rq->clock += rnd % 1000;
		switch (rnd >> 32 & 3) {
		case 0: case 1:                       /* enqueue or dequeue */
			if (queued[i])
				deactivate_task(rq, p, (rnd >> 40) & 1 ? DEQUEUE_SLEEP : 0);
			else
				activate_task(rq, p, (rnd >> 40) & 1 ? ENQUEUE_WAKEUP : 0);
			queued[i] = !queued[i];
			break;
		case 2: {                             /* run the leftmost a little */
			struct task *next = fair_sched_class.pick_next_task(rq);
			if (next) {
				rq_set(rq, curr, next);
				rq->clock += rnd % 3000000;
				fair_sched_class.put_prev_task(rq, next);
				rq_set(rq, curr, rq->idle);
			}
			break;
		}
		case 3: {                             /* requeue (yield) a task as if it ran */
			struct task *next = fair_sched_class.pick_next_task(rq);
			if (next) {
				rq_set(rq, curr, next);
				fair_sched_class.requeue_task(rq, next);
				fair_sched_class.put_prev_task(rq, next);
				rq_set(rq, curr, rq->idle);
			}
			break;
		}
		}
		spin_unlock(&rq->lock);
		if (!sched_check_cpu(0, why, sizeof(why)))
			test_fail(__FILE__, __LINE__, "after operation %d: %s", op, why);
	}
}

TEST(sched_balancing_spreads_eight_hogs_and_honours_affinity)
{
	struct sim_task *h[8];
	sim_reset(4, 1000);
	for (int i = 0; i < 8; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_set_affinity(h[i], 1);        /* all on cpu0 to begin with */
		sim_start(h[i], 0);
	}
	sim_run(100 * SIM_MS);
	EXPECT_EQ_INT(sim_rq(0)->nr_running, 8);
	for (int i = 2; i < 8; i++) {
		sim_on_cpu(0);
		EXPECT_EQ_INT(sched_setaffinity(h[i]->task.pid, 0xf), 0);
	}
	sim_run(SIM_S);
	for (int cpu = 0; cpu < 4; cpu++)
		EXPECT_EQ_INT(sim_rq(cpu)->nr_running, 2);
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ_INT(h[i]->task.cpu, 0);
		EXPECT_EQ_UINT(h[i]->task.stats.nr_migrations, 0);
	}
	expect_consistent(4);
}

TEST(sched_n_plus_one_hogs_each_get_n_over_n_plus_one)
{
	struct sim_task *h[5];
	uint64_t got[5];
	sim_reset(4, 1000);
	start_hogs(h, 5, 0);
	measure(h, 5, 10 * SIM_S, got);
	double worst = 0;
	for (int i = 0; i < 5; i++) {
		double dev = share(got[i], 10 * SIM_S) - 0.8;
		worst = dev < 0 ? (-dev > worst ? -dev : worst) : (dev > worst ? dev : worst);
	}
	for (int i = 0; i < 5; i++)
		printf("# hog %d: %.4f\n", i, share(got[i], 10 * SIM_S));
	if (worst > 0.02)
		test_fail(__FILE__, __LINE__, "a hog's share is %.4f away from 0.8", worst);
	expect_consistent(4);
}

/* massive_intr: 10 tasks that work 8 ms and sleep 1 ms on 4 CPUs. They are
 * queued only briefly, so wake-up placement does most of the balancing:
 * each must end up with nearly the same CPU time. */
TEST(sched_massive_intr_tasks_get_equal_time)
{
	struct sim_task *t[10];
	uint64_t got[10], least = UINT64_MAX, most = 0;
	sim_reset(4, 1000);
	for (int i = 0; i < 10; i++) {
		t[i] = sim_task("massive_intr", 8 * SIM_MS, SIM_MS);
		sim_start(t[i], 0);
	}
	measure(t, 10, 10 * SIM_S, got);
	for (int i = 0; i < 10; i++) {
		least = got[i] < least ? got[i] : least;
		most = got[i] > most ? got[i] : most;
	}
	printf("# massive_intr: least %.4f, most %.4f of a CPU, spread %.4f\n", share(least, 10 * SIM_S),
	       share(most, 10 * SIM_S), (double)most / (double)least);
	if ((double)most > 1.05 * (double)least)
		test_fail(__FILE__, __LINE__, "spread %.4f (most/least CPU time) above 1.05",
			  (double)most / (double)least);
	expect_consistent(4);
}

/* ring-test: 10 tasks pass a token round a ring next to a hog. Only one
 * member is ever runnable, so the ring as a whole and the hog should split
 * the CPU; a fair clock that stood still while members ran behind it gave
 * each member fresh sleeper credit and the hog about 1/11. */
TEST(sched_a_token_ring_does_not_starve_a_hog)
{
	struct sim_task *ring[100], *hog;
	sim_reset(1, 1000);
	hog = sim_task("hog", 0, 0);
	for (int i = 0; i < 100; i++)
		ring[i] = sim_task("ring", 8000, 0);
	sim_start(hog, 0);
	sim_ring(ring, 100, 0);
	sim_run(SIM_S);
	uint64_t before = sim_runtime(hog);
	sim_run(10 * SIM_S);
	double got = share(sim_runtime(hog) - before, 10 * SIM_S);
	printf("# the hog got %.4f of the CPU next to the ring\n", got);
	if (got < 0.45 || got > 0.55)
		test_fail(__FILE__, __LINE__, "the hog got %.4f of the CPU, not about 0.5", got);
	expect_consistent(1);
}

/* Start a hog on cpu0 now; how long until it first runs (10 s if never). */
static uint64_t newcomer_first_run(void)
{
	struct sim_task *newcomer = sim_task("newcomer", 0, 0);
	sim_start(newcomer, 0);
	uint64_t started = sim_now();
	while (!newcomer->first_run_at && sim_now() < started + 10 * SIM_S)
		sim_run(SIM_MS / 10);
	return newcomer->first_run_at ? newcomer->first_run_at - started : 10 * SIM_S;
}

/* Sleepers woken with credit, and tasks that leave and come back, must not
 * carry the fair clock away from the tasks themselves: a newcomer placed at
 * the fair clock would then wait for all of them to catch up. */
TEST(sched_newcomer_waits_little_after_many_sleepers)
{
	struct sim_task *s[20];
	sim_reset(1, 1000);
	sim_sysctl("sched_child_runs_first", 0);
	for (int i = 0; i < 20; i++) {
		s[i] = sim_task("sleeper", 100000 + 37000 * (uint64_t)i, 500000 + 91000 * (uint64_t)i);
		sim_start(s[i], 0);
	}
	sim_start(sim_task("hog", 0, 0), 0);
	sim_run(5 * SIM_S);
	uint64_t waited = newcomer_first_run();
	printf("# the newcomer waited %llu us\n", (unsigned long long)waited / 1000);
	if (waited > 50 * SIM_MS)
		test_fail(__FILE__, __LINE__, "the newcomer waited %llu ms", (unsigned long long)waited / SIM_MS);
}

TEST(sched_new_task_runs_first_when_asked)
{
	for (int runs_first = 0; runs_first <= 1; runs_first++) {
		sim_reset(1, 1000);
		sim_sysctl("sched_child_runs_first", runs_first);
		struct sim_task *parent = sim_task("parent", 0, 0);
		sim_start(parent, 0);
		sim_run(50 * SIM_MS);
		struct sim_task *child = sim_task("child", 0, 0);
		sim_start(child, 0);
		uint64_t started = sim_now();
		sim_run(1);
		if (runs_first)
			EXPECT_EQ_UINT(child->first_run_at, started + 1);
		else
			EXPECT(child->first_run_at == 0);
	}
}

/* A child starts with its parent's policy, priority, nice and CPUs
 * (sched_fork); SCHED_RESET_ON_FORK keeps an RT policy and a negative nice
 * from it, and the flag itself. */
TEST(sched_fork_hands_the_parents_scheduling_to_the_child)
{
	sim_reset(2, 1000);
	struct sim_task *parent = sim_task("parent", 0, 0);
	sim_start(parent, 0);
	int pid = parent->task.pid;
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_RR, &(struct sched_param){ 7 }), 0);
	EXPECT_EQ_INT(sched_set_nice(pid, -3), 0);
	EXPECT_EQ_INT(sched_setaffinity(pid, 1), 0);
	sim_run(SIM_MS);

	struct sim_task *child = sim_fork(parent, "child");
	EXPECT_EQ_INT(child->task.policy, SCHED_RR);
	EXPECT_EQ_INT(child->task.rt_priority, 7);
	EXPECT_EQ_INT(child->task.prio, parent->task.prio);
	EXPECT_EQ_INT(child->task.nice, -3);
	EXPECT_EQ_INT(child->task.static_prio, parent->task.static_prio);
	EXPECT_EQ_UINT(child->task.cpus_allowed, 1);
	sim_start(child, 0);
	EXPECT_EQ_INT(sched_getscheduler(child->task.pid), SCHED_RR);
	sim_run(SIM_S);                   /* RR: the two take turns on CPU 0 */
	EXPECT(sim_runtime(child) > 400 * SIM_MS && sim_runtime(parent) > 400 * SIM_MS);

	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_RR | SCHED_RESET_ON_FORK, &(struct sched_param){ 7 }), 0);
	struct sim_task *reset = sim_fork(parent, "reset");
	EXPECT_EQ_INT(reset->task.policy, SCHED_NORMAL);
	EXPECT_EQ_INT(reset->task.rt_priority, 0);
	EXPECT_EQ_INT(reset->task.nice, 0);
	EXPECT_EQ_INT(reset->task.prio, reset->task.static_prio);
	EXPECT_EQ_UINT(reset->task.cpus_allowed, 1);
	EXPECT(!reset->task.reset_on_fork);
	sim_start(reset, 0);
	EXPECT_EQ_INT(sched_getscheduler(reset->task.pid), SCHED_NORMAL);

	/* A normal policy and a positive nice are kept. */
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_BATCH | SCHED_RESET_ON_FORK, &(struct sched_param){ 0 }), 0);
	EXPECT_EQ_INT(sched_set_nice(pid, 4), 0);
	struct sim_task *batch = sim_fork(parent, "batch");
	EXPECT_EQ_INT(batch->task.policy, SCHED_BATCH);
	EXPECT_EQ_INT(batch->task.nice, 4);
	EXPECT(!batch->task.reset_on_fork);

	/* Without a parent (a task the kernel makes): the defaults. */
	struct sim_task *kernel = sim_task("kernel", 0, 0);
	EXPECT_EQ_INT(kernel->task.policy, SCHED_NORMAL);
	EXPECT_EQ_INT(kernel->task.nice, 0);
	EXPECT_EQ_UINT(kernel->task.cpus_allowed, ~0ULL);
}

TEST(sched_yield_goes_behind_every_other_task)
{
	struct sim_task *h[3];
	sim_reset(1, 1000);
	start_hogs(h, 3, 0);
	sim_run(SIM_S);
	struct task *yielder = sim_rq(0)->curr;
	sim_on_cpu(0);
	sched_yield_current();
	EXPECT(sim_rq(0)->curr != yielder);
	struct task *second = sim_rq(0)->curr;
	/* The other one runs next, then the yielder last. */
	sim_on_cpu(0);
	sched_yield_current();
	EXPECT(sim_rq(0)->curr != yielder && sim_rq(0)->curr != second);
}

TEST(sched_api_rejects_bad_arguments)
{
	sim_reset(2, 1000);
	struct sim_task *t = sim_task("t", 0, 0);
	sim_start(t, 0);
	int pid = t->task.pid;
	struct sched_param p1 = { 1 }, p0 = { 0 }, p100 = { 100 };
	EXPECT_EQ_INT(sched_setscheduler(pid, 7, &p0), -EINVAL);
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_FIFO, &p0), -EINVAL);
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_RR, &p100), -EINVAL);
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_NORMAL, &p1), -EINVAL);
	EXPECT_EQ_INT(sched_setscheduler(pid + 100, SCHED_FIFO, &p1), -ESRCH);
	EXPECT_EQ_INT(sched_setscheduler(pid, SCHED_FIFO, &p1), 0);
	EXPECT_EQ_INT(sched_getscheduler(pid), SCHED_FIFO);
	EXPECT_EQ_INT(sched_set_nice(pid, 20), -EINVAL);
	EXPECT_EQ_INT(sched_setaffinity(pid, 1ULL << 5), -EINVAL);   /* CPU 5 is not online */
	EXPECT_EQ_INT(sched_setaffinity(pid, 2), 0);
	sim_run(10 * SIM_MS);
	EXPECT_EQ_INT(t->task.cpu, 1);
}

/* CFS v2's sched_max_hog_history_ns: with a large granularity a hog runs
 * far past a newcomer's fair place before the tick lets it go; the limit
 * bounds the debt it may run up. Next to one equal task its debt grows at
 * half the rate it runs (the fair clock moves at 1024 / load), so a 10 ms
 * limit is reached after 20 ms. */
static uint64_t newcomer_wait(int64_t history_ns)
{
	sim_reset(1, 1000);
	sim_sysctl("sched_granularity_ns", 100 * (int64_t)SIM_MS);
	sim_sysctl("sched_child_runs_first", 0);
	sim_sysctl("sched_max_hog_history_ns", history_ns);
	sim_start(sim_task("hog", 0, 0), 0);
	sim_run(SIM_S);
	return newcomer_first_run();
}

TEST(sched_max_hog_history_bounds_a_hogs_lead)
{
	uint64_t unlimited = newcomer_wait(0), limited = newcomer_wait(10 * (int64_t)SIM_MS);
	printf("# the newcomer waited %llu us without the limit, %llu us with 10 ms\n",
	       (unsigned long long)unlimited / 1000, (unsigned long long)limited / 1000);
	EXPECT(unlimited >= 95 * SIM_MS && unlimited <= 105 * SIM_MS);
	EXPECT(limited >= 18 * SIM_MS && limited <= 22 * SIM_MS);
}

/* What p is owed on cpu's runqueue, read under its lock. */
static int64_t wait_runtime_on(int cpu, struct task *p)
{
	struct rq *rq = sim_rq(cpu);
	spin_lock(&rq->lock);
	int64_t owed = fair_wait_runtime(rq, p);
	spin_unlock(&rq->lock);
	return owed;
}

/* A task moved to another CPU keeps what it is owed: its key is re-expressed
 * relative to the destination's fair clock. */
TEST(sched_migration_keeps_wait_runtime)
{
	struct sim_task *h[3];
	sim_reset(2, 1000);
	for (int i = 0; i < 3; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_set_affinity(h[i], 1);
		sim_start(h[i], 0);
	}
	sim_run(SIM_S);
	sim_run_through_tick(0);                /* cpu0's fair clock is current */
	/* A waiting task (not the running one), and what it is owed on cpu0. */
	struct task *mover = sim_rq(0)->curr == &h[0]->task ? &h[1]->task : &h[0]->task;
	sim_on_cpu(0);
	int64_t owed = wait_runtime_on(0, mover);
	EXPECT_EQ_INT(sched_setaffinity(mover->pid, 2), 0);
	EXPECT_EQ_INT(mover->cpu, 1);
	int64_t owed_there = wait_runtime_on(1, mover);
	if (owed_there != owed)
		test_fail(__FILE__, __LINE__, "owed %lld ns on cpu0, %lld ns on cpu1", (long long)owed,
			  (long long)owed_there);
}

/*
 * N+k hogs on N CPUs: no move brings the loads closer, so rotation alone
 * evens the shares (sched/balance.c). With the CPUs' ticks in step, as the
 * kernel's are, rotation that took only a waiting task missed the one task
 * that ran at every balancing tick: it kept its CPU share of 1/2 or 1 for good.
 */
TEST(sched_n_plus_k_hogs_share_evenly_whatever_the_ticks_phase)
{
	static const struct { int cpus, hogs; double bound; } cases[] = {
		{ 2, 3, 0.005 }, { 2, 5, 0.005 }, { 4, 5, 0.005 }, { 4, 7, 0.005 },
	};
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (int variant = 0; variant < 4; variant++) {
			int cpus = cases[c].cpus, n = cases[c].hogs;
			bool aligned = variant & 1, spread = variant & 2;
			struct sim_task *h[8];
			uint64_t got[8];
			sim_reset(cpus, 1000);
			if (aligned)
				sim_align_ticks();
			for (int i = 0; i < n; i++) {
				h[i] = sim_task("hog", 0, 0);
				sim_start(h[i], spread ? i % cpus : 0);
			}
			measure(h, n, 10 * SIM_S, got);
			double fair = (double)cpus / n, worst = 0;
			for (int i = 0; i < n; i++) {
				double dev = share(got[i], 10 * SIM_S) / fair - 1;
				worst = dev < -worst ? -dev : dev > worst ? dev : worst;
			}
			printf("# %d hogs on %d CPUs, ticks %s, started %s: largest share error %.4f\n", n, cpus,
			       aligned ? "in step" : "staggered", spread ? "spread" : "on cpu0", worst);
			if (worst > cases[c].bound)
				test_fail(__FILE__, __LINE__, "%d hogs on %d CPUs: a share is %.4f off (bound %.3f)", n,
					  cpus, worst, cases[c].bound);
			expect_consistent(cpus);
		}
	}
}

/* Found under Bochs: in lockstep, every try of the busiest CPU's lock came
 * while it held it, and a 16 ms interval between tries made that last. */
TEST(sched_a_balancer_that_finds_the_lock_taken_tries_again_at_the_next_tick)
{
	struct sim_task *h[4];
	sim_reset(2, 1000);
	sim_align_ticks();
	for (int i = 0; i < 4; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_set_affinity(h[i], i == 3 ? 2 : 1);   /* three on cpu0, one on cpu1 */
		sim_start(h[i], i == 3 ? 1 : 0);
	}
	sim_run(100 * SIM_MS);
	EXPECT_EQ_INT(sim_rq(0)->nr_running, 3);
	sim_fail_trylocks(&sim_rq(0)->lock, 3);
	uint64_t freed = sim_now();
	for (int i = 0; i < 3; i++) {
		sim_on_cpu(0);
		EXPECT_EQ_INT(sched_setaffinity(h[i]->task.pid, 3), 0);
	}
	/* cpu1 balances within one busy interval (16 ms), fails three times, and
	 * then takes a hog: one tick after each failure, not an interval. */
	while (sim_rq(1)->nr_running < 2 && sim_now() < freed + SIM_S)
		sim_run(SIM_MS / 4);
	uint64_t took = sim_now() - freed;
	printf("# the hog moved %llu us after it could\n", (unsigned long long)(took / 1000));
	EXPECT(took <= 16 * SIM_MS + 4 * SIM_MS);
	EXPECT_EQ_INT(sim_rq(0)->nr_running, 2);
	expect_consistent(2);
}
