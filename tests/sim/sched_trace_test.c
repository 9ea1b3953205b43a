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
