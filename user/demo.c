/*
 * The demo `make run` boots into: CFS at work, visible within seconds.
 *
 *   demo=cfs      (default) on every CPU: hogs at nice 0, 0, 5 and -5, an
 *                 interactive task (sleeps 10 ms, works 1 ms) and a
 *                 SCHED_FIFO task (every 20 ms, works 0.5 ms)
 *   demo=balance  N+1 unpinned hogs on N CPUs: watch rotation even them out
 *   demo=list     the demos;  demo=none: no demo
 *
 * Once a second a table: pid, name, CPU, policy/nice, %CPU over the last
 * second, total runtime, and for the sleepers how late each wake-up ran.
 * Nice levels split a CPU by their weights (1024 : 1024 : 335 : 3121), and
 * the interactive and RT tasks keep low latency next to the hogs.
 */
#include "kernel/programs.h"
#include "kernel/task.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "sched/api.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "lib/time_units.h"

#define MAX_DEMO_TASKS 64

static char demo_name[16] = "cfs";
BOOT_PARAM_STRING("demo", demo_name, "the demo make run shows: cfs, balance, none (demo=list lists them)");

enum kind { HOG, INTERACTIVE, PERIODIC_RT };

struct demo_task {
	struct task *task;
	enum kind kind;
	uint64_t last_runtime;
	/* sleepers: how late their wake-ups ran */
	uint64_t late_sum, late_max, wakeups;
};

static struct demo_task tasks[MAX_DEMO_TASKS];
static int ntasks;

static void hog(void *arg)
{
	(void)arg;
	for (;;)
		cpu_relax();
}

/* Sleep to absolute deadlines `period` apart, work `work` each time, and
 * record how late each wake-up ran. */
static void sleeper(struct demo_task *d, uint64_t period, uint64_t work)
{
	uint64_t deadline = clock_ns();
	for (;;) {
		deadline += period;
		uint64_t now = clock_ns();
		if (deadline > now)
			sleep_ns(deadline - now);
		uint64_t late = clock_ns() - deadline;
		d->late_sum += late;
		d->wakeups++;
		if (late > d->late_max)
			d->late_max = late;
		if (late > period)
			deadline = clock_ns();         /* far behind: start again from now */
		delay_ns(work);
	}
}

static void interactive(void *arg) { sleeper(arg, 10 * NS_PER_MS, 1 * NS_PER_MS); }
static void periodic_rt(void *arg) { sleeper(arg, 20 * NS_PER_MS, NS_PER_MS / 2); }

static void add(const char *name, enum kind kind, int cpu, int nice)
{
	if (ntasks == MAX_DEMO_TASKS)
		return;
	struct demo_task *d = &tasks[ntasks];
	void (*fn)(void *) = kind == HOG ? hog : kind == INTERACTIVE ? interactive : periodic_rt;
	struct task *p = task_create(name, fn, d);
	if (!p) {
		pr_err("demo: out of memory for %s", name);
		return;
	}
	if (cpu >= 0)
		p->cpus_allowed = 1ULL << cpu;
	if (kind == PERIODIC_RT) {
		struct sched_param param = { 50 };
		sched_setscheduler(p->pid, SCHED_FIFO, &param);
	} else {
		set_user_nice(p, nice);
	}
	d->task = p;
	d->kind = kind;
	ntasks++;
	task_start(p);
}

static void start_cfs(void)
{
	static const int nices[] = { 0, 0, 5, -5 };
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (int i = 0; i < 4; i++)
			add("hog", HOG, cpu, nices[i]);
		add("interactive", INTERACTIVE, cpu, 0);
		add("fifo-periodic", PERIODIC_RT, cpu, 0);
	}
}

static void start_balance(void)
{
	for (int i = 0; i <= nr_cpus; i++)
		add("hog", HOG, -1, 0);
}

static const char *policy_text(const struct task *p, char *buf, size_t len)
{
	if (p->policy == SCHED_FIFO || p->policy == SCHED_RR)
		snprintf(buf, len, "%s/%d", p->policy == SCHED_FIFO ? "FIFO" : "RR", p->rt_priority);
	else
		snprintf(buf, len, "%s/%d", p->policy == SCHED_BATCH ? "BATCH" : "OTHER", p->nice);
	return buf;
}

static void print_table(uint64_t interval)
{
	pr_info("  PID NAME            CPU POLICY    %%CPU   RUNTIME(s)  WAKE-UP LATE avg/max (us)");
	for (int i = 0; i < ntasks; i++) {
		struct demo_task *d = &tasks[i];
		struct task *p = d->task;
		uint64_t runtime = task_sched_runtime(p), delta = runtime - d->last_runtime;
		d->last_runtime = runtime;
		uint64_t permille = delta * 1000 / interval;
		char policy[16], late[40] = "-";
		if (d->kind != HOG && d->wakeups)
			snprintf(late, sizeof(late), "%llu / %llu",
				 (unsigned long long)(d->late_sum / d->wakeups / NS_PER_US),
				 (unsigned long long)(d->late_max / NS_PER_US));
		pr_info("%5d %-15s %3d %-8s %3llu.%llu %9llu.%03llu  %s", p->pid, p->name, p->cpu,
			policy_text(p, policy, sizeof(policy)), (unsigned long long)permille / 10,
			(unsigned long long)permille % 10, (unsigned long long)(runtime / NS_PER_S),
			(unsigned long long)(runtime / NS_PER_MS % 1000), late);
		d->late_sum = d->wakeups = d->late_max = 0;
	}
}

void demo_run(void)
{
	if (strcmp(demo_name, "none") == 0)
		return;
	if (strcmp(demo_name, "list") == 0) {
		pr_info("demo: cfs (nice levels, an interactive and an RT task on every CPU), "
			"balance (N+1 hogs on N CPUs), none");
		return;
	}
	if (strcmp(demo_name, "cfs") == 0) {
		start_cfs();
	} else if (strcmp(demo_name, "balance") == 0) {
		start_balance();
	} else {
		pr_err("demo: no demo named '%s' (cfs, balance, none; demo=list)", demo_name);
		return;
	}
	pr_info("demo: %s: %d tasks; a table every second ('h' for the debug keys)", demo_name, ntasks);
	/* Report from the highest priority, so the table comes out on time. */
	struct sched_param param = { 90 };
	sched_setscheduler(0, SCHED_FIFO, &param);
	uint64_t last = clock_ns();
	for (;;) {
		sleep_ns(NS_PER_S);
		uint64_t now = clock_ns();
		print_table(now - last);
		last = now;
	}
}
