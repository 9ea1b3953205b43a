/*
 * The scheduler's checked contracts (assert_held(), assert_irqs_off():
 * kernel/spinlock.h): broken on purpose in the simulator, each must stop
 * the scheduler with a message that names the function, the lock and who
 * holds it, whichever normal class runs (sim_for_each_class). And two
 * public questions: task_sched_runtime(), "how much CPU has this task
 * had?", of every class, and sched_cost_sample(), "what does a decision
 * cost?", of CFS.
 */
#include "tests/host/lib.h"
#include <stdio.h>
#include <stdlib.h>
#include "tests/host/test.h"
#include "tests/sim/sim.h"
#include "sched/check.h"
#include "sched/debug.h"
#include "sched/wait.h"

static struct sim_task *task;

/* The core calls a class method (enqueue_task) without the runqueue lock. */
static void enqueue_unlocked(void)
{
	activate_task(sim_rq(0), &task->task, 0);
}

TEST(sched_a_class_method_called_without_the_runqueue_lock_is_caught)
{
	const char *sched;
	sim_for_each_class(sched) {
		char msg[160] = "";
		sim_reset_sched(2, 1000, sched);
		task = sim_task("t", 0, 0);
		sim_on_cpu(0);
		EXPECT(sim_catch_bug(enqueue_unlocked, msg, sizeof(msg)));
		EXPECT_EQ_STR(msg, "activate_task: cpu0 must hold lock 'rq0', but it is free");
	}
}

TEST(sched_a_runqueue_locked_by_another_cpu_is_named)
{
	const char *sched;
	sim_for_each_class(sched) {
		char msg[160] = "";
		sim_reset_sched(2, 1000, sched);
		task = sim_task("t", 0, 0);
		sim_on_cpu(1);
		spin_lock(&sim_rq(0)->lock);
		sim_on_cpu(0);
		EXPECT(sim_catch_bug(enqueue_unlocked, msg, sizeof(msg)));
		EXPECT_EQ_STR(msg, "activate_task: cpu0 must hold lock 'rq0', but cpu1 holds it");
		printf("# %s: caught: %s\n", sched, msg);
	}
}

static void tick_with_irqs_on(void)
{
	scheduler_tick();
}

TEST(sched_the_tick_with_interrupts_on_is_caught)
{
	const char *sched;
	sim_for_each_class(sched) {
		char msg[160] = "";
		sim_reset_sched(1, 1000, sched);
		sim_on_cpu(0);
		EXPECT(sim_catch_bug(tick_with_irqs_on, msg, sizeof(msg)));
		EXPECT_EQ_STR(msg, "scheduler_tick: cpu0 must have interrupts off, but they are on");
	}
}

static struct wait_queue wq;

static void wake_unlocked(void)
{
	wake_up_locked(&wq, 1);
}

TEST(sched_wake_up_locked_without_the_queue_lock_is_caught)
{
	char msg[160] = "";
	sim_reset(1, 1000);
	wait_queue_init(&wq, "test_wq");
	EXPECT(sim_catch_bug(wake_unlocked, msg, sizeof(msg)));
	EXPECT_CONTAINS(msg, "wake_up_locked: cpu0 must hold lock 'test_wq'");
}

/* sum_exec_runtime lags up to a tick behind a running task; the answer
 * does not: a hog alone on its CPU has had all the time since it started. */
TEST(sched_task_sched_runtime_counts_the_running_stretch)
{
	const char *sched;
	sim_for_each_class(sched) {
		sim_reset_sched(1, 1000, sched);
		struct sim_task *hog = sim_task("hog", 0, 0), *sleeper = sim_task("sleeper", 300000, 10 * SIM_S);
		sim_start(hog, 0);
		sim_run(10 * SIM_MS + 300000);          /* 0.3 ms past a tick: not yet charged */
		EXPECT_EQ_UINT(task_sched_runtime(&hog->task), sim_now() - hog->first_run_at);
		EXPECT(sim_runtime(hog) < sim_now() - hog->first_run_at);

		sim_start(sleeper, 0);
		sim_run(SIM_S);                         /* it ran its burst and sleeps */
		EXPECT_EQ_UINT(task_sched_runtime(&sleeper->task), 300000);
		EXPECT_EQ_UINT(sim_runtime(sleeper), 300000);
	}
}

static uint64_t reads;

static uint64_t count_reads(void)
{
	return ++reads;
}

/* sched/cost.c's private runqueue (the sched_cost ktest's): the methods run
 * on it (each timed alone, between two reads of the clock) and the
 * machine's own runqueues never see its thousand dummies. */
TEST(sched_cost_runs_the_fair_class_on_a_runqueue_of_its_own)
{
	sim_reset(1, 1000);
	void *mem = calloc(1, sched_cost_size(1000));
	struct sched_cost *c = sched_cost_init(mem, 1000, 2 * SIM_MS);
	for (int i = 0; i < 100; i++) {
		struct sched_cost_sample s;
		sched_cost_sample(c, (uint64_t)i * 20000, 2 * SIM_MS, count_reads, &s);
		EXPECT(s.enqueue == 1 && s.dequeue == 1 && s.pick == 1 && s.put == 1);
	}
	char why[160];
	EXPECT(sched_check_cpu(0, why, sizeof(why)));
	EXPECT_EQ_INT(sim_rq(0)->nr_running, 0);
	free(mem);
}
