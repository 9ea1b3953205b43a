/*
 * The trace points of sched/trace.h, checked in the simulator: the switches
 * the scheduler reports must describe a machine where every CPU always runs
 * exactly one task and no task runs on two CPUs, and the CPU time they add
 * up to must be exactly what the scheduler charged (the kernel's trace test,
 * tools/tracecheck.py, checks the same on real runs within 1%).
 */
#include "tests/host/lib.h"
#include "tests/host/test.h"
#include "tests/sim/sim.h"
#include "sched/trace.h"

#define NCPUS 4
#define MAX_SEEN (SIM_MAX_TASKS + NCPUS)

/* What the trace says about one task. */
struct seen {
	const struct task *task;
	int on_cpu;                   /* -1: not running */
	uint64_t since, runtime;
};

static struct seen *find(struct seen *seen, int *n, const struct task *p)
{
	for (int i = 0; i < *n; i++)
		if (seen[i].task == p)
			return &seen[i];
	seen[*n] = (struct seen){ .task = p, .on_cpu = -1 };
	return &seen[(*n)++];
}

TEST(sched_trace_switches_pair_up_and_add_up)
{
	static struct seen seen[MAX_SEEN];
	struct sim_task *t[12];
	int n = 0;

	sim_reset(NCPUS, 1000);
	for (int cpu = 0; cpu < NCPUS; cpu++) {        /* each CPU starts in its idle task */
		struct seen *s = find(seen, &n, sim_rq(cpu)->curr);
		s->on_cpu = cpu;
		s->since = sim_now();
	}
	sim_trace_start();
	for (int i = 0; i < 12; i++) {
		/* hogs, then tasks that sleep: wake-ups, migrations, idle CPUs */
		t[i] = i < 5 ? sim_task("hog", 0, 0) : sim_task("sleeper", (uint64_t)i * 100000, (uint64_t)i * 300000);
		if (i == 4)
			sim_set_policy(t[i], SCHED_FIFO, 10, 0);
		sim_start(t[i], i % NCPUS);
	}
	sim_run(2 * SIM_S);

	const struct sim_switch *log;
	bool overflow;
	int len = sim_trace(&log, &overflow);
	EXPECT(!overflow);
	EXPECT(len > 1000);
	for (int i = 0; i < len && !test_failed(); i++) {
		const struct sim_switch *sw = &log[i];
		struct seen *prev = find(seen, &n, sw->prev), *next = find(seen, &n, sw->next);
		if (prev->on_cpu != sw->cpu)
			test_fail(__FILE__, __LINE__, "switch %d on cpu%d: prev %s is not what runs there", i,
				  sw->cpu, sw->prev->name);
		if (next->on_cpu != -1)
			test_fail(__FILE__, __LINE__, "switch %d on cpu%d: next %s already runs on cpu%d", i,
				  sw->cpu, sw->next->name, next->on_cpu);
		prev->runtime += sw->ts - prev->since;
		prev->on_cpu = -1;
		next->on_cpu = sw->cpu;
		next->since = sw->ts;
	}
	for (int i = 0; i < 12; i++) {
		struct seen *s = find(seen, &n, &t[i]->task);
		if (s->on_cpu < 0 && s->runtime != sim_runtime(t[i]))
			test_fail(__FILE__, __LINE__, "%s (pid %d): the switches add up to %llu ns, the scheduler charged %llu",
				  t[i]->task.name, t[i]->task.pid, (unsigned long long)s->runtime,
				  (unsigned long long)sim_runtime(t[i]));
	}
}

/* The text of each event, as ftrace writes it (tools/tracefile.py and
 * tests/trace/good.txt read these): sched/trace_format.c, byte for byte. */
static void expect_text(enum trace_type type, int64_t x, int64_t y, int cpu, const char *want)
{
	const struct trace_task a = { .pid = 7, .prio = 120, .comm = "hog" }, b = { .pid = 0, .prio = 140, .comm = "idle/1" };
	char got[256];
	trace_format(got, sizeof(got), type, x, y, &a, &b, cpu);
	EXPECT_EQ_STR(got, want);
}

TEST(sched_trace_events_read_as_ftrace_writes_them)
{
	expect_text(TRACE_SWITCH, TRACE_PREV_PREEMPTED, 0, 1, "sched_switch: prev_comm=hog prev_pid=7 prev_prio=120 "
		    "prev_state=R+ ==> next_comm=idle/1 next_pid=0 next_prio=140");
	expect_text(TRACE_SWITCH, TRACE_PREV_DEAD, 0, 1, "sched_switch: prev_comm=hog prev_pid=7 prev_prio=120 "
		    "prev_state=X ==> next_comm=idle/1 next_pid=0 next_prio=140");
	expect_text(TRACE_WAKING, 3, 0, 1, "sched_waking: comm=hog pid=7 prio=120 target_cpu=003");
	expect_text(TRACE_WAKEUP, 2, 0, 1, "sched_wakeup: comm=hog pid=7 prio=120 target_cpu=002");
	expect_text(TRACE_WAKEUP_NEW, 0, 0, 1, "sched_wakeup_new: comm=hog pid=7 prio=120 target_cpu=000");
	expect_text(TRACE_MIGRATE, 1, 2, 1, "sched_migrate_task: comm=hog pid=7 prio=120 orig_cpu=1 dest_cpu=2");
	expect_text(TRACE_PUSH, 3, 0, 1, "sched_push_task: comm=hog pid=7 prio=120 orig_cpu=3 dest_cpu=0");
	expect_text(TRACE_FAIR_ENQUEUE, 5000, 4000, 1, "sched_fair_enqueue: comm=hog pid=7 prio=120 key=5000 fair_clock=4000");
	expect_text(TRACE_FAIR_DEQUEUE, 5000, 4000, 1, "sched_fair_dequeue: comm=hog pid=7 prio=120 key=5000 fair_clock=4000");
	expect_text(TRACE_TICK_PREEMPT, 2500000, TRACE_TICK_FAIR, 1,
		    "sched_tick_preempt: comm=hog pid=7 prio=120 reason=fair ahead_ns=2500000");
	expect_text(TRACE_TICK_PREEMPT, 0, TRACE_TICK_RR_SLICE, 1, "sched_tick_preempt: comm=hog pid=7 prio=120 reason=rr_slice");
	expect_text(TRACE_TICK_PREEMPT, 0, TRACE_TICK_SLICE, 1, "sched_tick_preempt: comm=hog pid=7 prio=120 reason=slice");
	expect_text(TRACE_ROTATION, TRACE_ROTATE_TASK, 12, 1, "sched_rotation: kind=task comm=hog pid=7 at=12");
	expect_text(TRACE_ROTATION, TRACE_ROTATE_EXPIRE, 120, 1, "sched_rotation: kind=expire comm=hog pid=7 at=120");
	expect_text(TRACE_ROTATION, TRACE_ROTATE_REINSERT, 118, 1, "sched_rotation: kind=reinsert comm=hog pid=7 at=118");
	expect_text(TRACE_ROTATION, TRACE_ROTATE_LEVEL, 30, 1, "sched_rotation: kind=level comm=- pid=0 at=30");
	expect_text(TRACE_ROTATION, TRACE_ROTATE_MAJOR, 4, 1, "sched_rotation: kind=major comm=- pid=0 at=4");
	expect_text(TRACE_RT_THROTTLE, 950000000, 950000000, 2,
		    "sched_rt_throttle: cpu=2 rt_time_ns=950000000 runtime_ns=950000000");
	expect_text(TRACE_RT_UNTHROTTLE, 0, 0, 2, "sched_rt_unthrottle: cpu=2");
	expect_text(TRACE_IDLE_BALANCE, 3, 0, 2, "sched_idle_balance: cpu=2 busiest_cpu=3");
	expect_text(TRACE_EXIT, 123456, 0, 1, "sched_process_exit: comm=hog pid=7 prio=120 runtime_ns=123456");
	expect_text(99, 0, 0, 1, "leftmost_unknown: type=99");
}
