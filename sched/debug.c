/*
 * What CFS v2's /proc/sched_debug and the SCH-* lines of /proc/<pid>/status
 * showed: each runqueue with its fair and RT parts, the runnable tasks in
 * timeline order, and one task's scheduling statistics. Times are printed
 * as milliseconds with six decimals (ns precision), as 2.6.24 did.
 */
#include "sched/debug.h"
#include "sched/core.h"
#include "sched/fair.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "lib/time_units.h"

static const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_FIFO:  return "FIFO";
	case SCHED_RR:    return "RR";
	case SCHED_BATCH: return "BATCH";
	case SCHED_IDLE:  return "IDLE";
	default:          return "NORMAL";
	}
}

/*
 * The dump is a snapshot: every runqueue is locked at once (in address
 * order, as double_rq_lock does), copied, and unlocked before the slow
 * printing. So a task that migrates meanwhile is still listed exactly once,
 * and each tree is seen in one consistent state.
 */
#define SNAPSHOT_ROWS 256

struct row {
	char name[TASK_NAME_LEN];
	int pid, nice, prio, policy;
	bool running;
	char place[40];                   /* its class's debug_task columns */
	uint64_t exec_runtime, switches;
};

struct rq_snapshot {
	unsigned nr_running, rt_nr_running;
	uint64_t load, nr_switches, clock, rt_time, bitmap[2];
	char normal_part[320];            /* the normal class's debug_rq lines */
	int curr_pid, rt_throttled;
	bool need_resched, polling;
	char curr_name[TASK_NAME_LEN];
	int first_row, nr_rows;
};

static struct spinlock snapshot_lock = SPINLOCK_INIT("sched_debug");
static struct rq_snapshot rq_snaps[SCHED_MAX_CPUS];
static struct row rows[SNAPSHOT_ROWS];
static int nr_rows, rows_missed;

static void copy_row(const struct rq *rq, const struct task *p)
{
	if (nr_rows == SNAPSHOT_ROWS) {
		rows_missed++;
		return;
	}
	struct row *r = &rows[nr_rows++];
	memcpy(r->name, p->name, sizeof r->name);
	r->pid = p->pid;
	r->nice = p->nice;
	r->prio = p->prio;
	r->policy = p->policy;
	r->running = p == rq->curr;
	if (p->sched_class->debug_task)
		p->sched_class->debug_task(rq, p, r->place, sizeof(r->place));
	else
		snprintf(r->place, sizeof(r->place), "- -");
	r->exec_runtime = p->se.sum_exec_runtime;
	r->switches = p->stats.nr_switches;
}

static void copy_rq(struct rq *rq, struct rq_snapshot *s)
{
	update_rq_clock(rq);
	s->nr_running = rq->nr_running;
	s->load = rq->load;
	s->nr_switches = rq->nr_switches;
	s->clock = rq->clock;
	s->curr_pid = rq->curr->pid;
	s->need_resched = task_need_resched(rq->curr);
	s->polling = __atomic_load_n(&rq->curr->polling, __ATOMIC_RELAXED);
	memcpy(s->curr_name, rq->curr->name, sizeof s->curr_name);
	s->normal_part[0] = '\0';
	if (normal_sched_class->debug_rq)
		normal_sched_class->debug_rq(rq, s->normal_part, sizeof(s->normal_part));
	s->rt_nr_running = rq->rt.nr_running;
	s->rt_throttled = rq->rt.throttled;
	s->rt_time = rq->rt.rt_time;
	s->bitmap[0] = rq->rt.bitmap[0];
	s->bitmap[1] = rq->rt.bitmap[1];
	s->first_row = nr_rows;
	/* RT first, by priority (the running one sits at the head of its
	 * queue), then the running normal task, then the normal class's queued
	 * ones as its balancing iterator walks them (CFS: the timeline in order). */
	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		struct list_node *n;
		list_for_each(n, &rq->rt.queue[prio])
			copy_row(rq, list_entry(n, struct task, rt.run_list));
	}
	const struct sched_class *normal = normal_sched_class;
	if (rq->curr->sched_class == normal && rq->curr->on_rq)
		copy_row(rq, rq->curr);
	for (struct task *p = normal->load_balance_start(rq); p; p = normal->load_balance_next(rq))
		copy_row(rq, p);
	s->nr_rows = nr_rows - s->first_row;
}

static void take_snapshot(void)
{
	nr_rows = rows_missed = 0;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			spin_lock(&cpu_rq(cpu)->lock);
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			copy_rq(cpu_rq(cpu), &rq_snaps[cpu]);
	for (int cpu = sched_nr_cpus() - 1; cpu >= 0; cpu--)
		if (sched_cpu_online(cpu))
			rq_unlock(cpu_rq(cpu));
}

/* One line of text into the sink. */
static void __attribute__((format(printf, 2, 3))) say(struct text_sink *out, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out->line(out, line);
}

static void show_rq(struct text_sink *out, int cpu, const struct rq_snapshot *s)
{
	say(out, "cpu#%d", cpu);
	say(out, "  .nr_running            : %u", s->nr_running);
	say(out, "  .load                  : %llu", (unsigned long long)s->load);
	say(out, "  .nr_switches           : %llu", (unsigned long long)s->nr_switches);
	say(out, "  .clock                 : " MS_FMT, MS_ARG(s->clock));
	say(out, "  .curr->pid             : %d (%s)", s->curr_pid, s->curr_name);
	/* A CPU with tasks waiting and neither of these set will not switch. */
	say(out, "  .curr->need_resched    : %d", s->need_resched);
	say(out, "  .curr->polling         : %d", s->polling);
	/* The normal class's lines, as its debug_rq wrote them. */
	char part[sizeof(s->normal_part)];
	memcpy(part, s->normal_part, sizeof(part));
	for (char *line = part, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		*end = '\0';
		say(out, "%s", line);
	}
	say(out, "rt_rq[%d]:", cpu);
	say(out, "  .rt_nr_running         : %u", s->rt_nr_running);
	say(out, "  .rt_throttled          : %d", s->rt_throttled);
	say(out, "  .rt_time               : " MS_FMT, MS_ARG(s->rt_time));
	say(out, "  .bitmap                : %016llx%016llx", (unsigned long long)s->bitmap[1],
		(unsigned long long)s->bitmap[0]);
	say(out, "runnable tasks:");
	say(out, "             task   PID %s     exec-runtime  switches nice prio policy",
	    normal_sched_class->debug_task_header);
	for (const struct row *r = &rows[s->first_row]; r < &rows[s->first_row + s->nr_rows]; r++)
		say(out, "%c %15s %5d %s " MS_FMT " %9llu %4d %4d %s", r->running ? 'R' : ' ', r->name, r->pid,
		    r->place, MS_ARG(r->exec_runtime), (unsigned long long)r->switches, r->nice, r->prio,
		    policy_name(r->policy));
}

void sched_debug_show(struct text_sink *out)
{
	uint64_t flags = spin_lock_irqsave(&snapshot_lock);
	uint64_t now = sched_clock();
	take_snapshot();
	say(out, "Sched Debug Version: leftmost 1, now at " MS_FMT " msecs", MS_ARG(now));
	say(out, "scheduler: %s", sched_selected());
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			show_rq(out, cpu, &rq_snaps[cpu]);
	if (rows_missed)
		say(out, "(%d more runnable tasks not shown)", rows_missed);
	say(out, "End of Sched Debug");
	spin_unlock_irqrestore(&snapshot_lock, flags);
}

/* Linux's /proc/schedstat, version 15: a line of counters per CPU. Linux
 * adds a line per scheduling domain; leftmost balances without domains. */
void sched_schedstat_show(struct text_sink *out)
{
	say(out, "version 15");
	say(out, "timestamp %llu", (unsigned long long)(sched_clock() / NS_PER_MS));
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		if (!sched_cpu_online(cpu))
			continue;
		struct rq *rq = cpu_rq(cpu);
		uint64_t flags = spin_lock_irqsave(&rq->lock);
		typeof(rq->schedstat) s = rq->schedstat;
		spin_unlock_irqrestore(&rq->lock, flags);
		say(out, "cpu%d %llu 0 %llu %llu %llu %llu %llu %llu %llu", cpu, (unsigned long long)s.yld_count,
		    (unsigned long long)s.sched_count, (unsigned long long)s.sched_goidle,
		    (unsigned long long)s.ttwu_count, (unsigned long long)s.ttwu_local,
		    (unsigned long long)s.rq_cpu_time, (unsigned long long)s.run_delay, (unsigned long long)s.pcount);
	}
}

static void print_line(struct text_sink *out, const char *text)
{
	(void)out;
	pr_info("%s", text);
}

void sched_debug_dump(void)
{
	struct text_sink console = { print_line };
	sched_debug_show(&console);
}

static const char *state_name(int state)
{
	switch (state) {
	case TASK_RUNNING:  return "runnable";
	case TASK_SLEEPING: return "sleeping";
	case TASK_DEAD:     return "dead";
	default:            return "new";
	}
}

/* "name : value" lines, aligned as Linux's /proc/PID/sched. */
#define FIELD "%-40s : "

void sched_task_show(struct task *p, struct text_sink *out)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	const struct sched_statistics *st = &p->stats;
	bool fair = p->sched_class == &fair_sched_class && p->on_rq;
	say(out, FIELD "%s", "policy", policy_name(p->policy));
	say(out, FIELD "%d", "nice", p->nice);
	say(out, FIELD "%d", "prio", p->prio);
	say(out, FIELD "%s", "state", state_name(task_state(p)));
	say(out, FIELD "%d", "cpu", p->cpu);
	say(out, FIELD "%llx", "cpus_allowed", (unsigned long long)p->cpus_allowed);
	say(out, FIELD "%u", "se.load.weight", p->se.weight);
	say(out, FIELD MS_FMT, "se.sum_exec_runtime", MS_ARG(p->se.sum_exec_runtime));
	if (fair) {                       /* where it stands on the timeline, if it is on one */
		say(out, FIELD MS_FMT, "se.fair_key", MS_ARG(fair_key(rq, p)));
		say(out, FIELD MS_FMT, "se.wait_runtime", MS_ARG(fair_wait_runtime(rq, p)));
	}
	say(out, FIELD MS_FMT, "se.sum_wait_runtime", MS_ARG(st->sum_wait_runtime));
	say(out, FIELD MS_FMT, "se.wait_max", MS_ARG(st->wait_max));
	say(out, FIELD MS_FMT, "se.sum_sleep_runtime", MS_ARG(st->sum_sleep_runtime));
	say(out, FIELD "%llu", "nr_switches", (unsigned long long)st->nr_switches);
	say(out, FIELD "%llu", "nr_migrations", (unsigned long long)st->nr_migrations);
	say(out, FIELD "%llu", "nr_wakeups", (unsigned long long)st->nr_wakeups);
	say(out, FIELD "%llu", "nr_preemptions", (unsigned long long)st->nr_preemptions);
	task_rq_unlock(rq, flags);
}

void sched_task_status(struct task *p)
{
	struct text_sink console = { print_line };
	pr_info("%s (%d):", p->name, p->pid);
	sched_task_show(p, &console);
}
