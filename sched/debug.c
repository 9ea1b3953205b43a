/*
 * What CFS v2's /proc/sched_debug and the SCH-* lines of /proc/<pid>/status
 * showed: each runqueue with its fair and RT parts, the runnable tasks in
 * timeline order, and one task's scheduling statistics. Times are printed
 * as milliseconds with six decimals (ns precision), as 2.6.24 did.
 */
#include "sched/debug.h"
#include "sched/core.h"
#include "sched/fair.h"

/* A signed ns value as milliseconds: "-1.500000". */
#define MS_FMT "%s%llu.%06llu"
#define MS_ABS(ns) ((int64_t)(ns) < 0 ? -(uint64_t)(ns) : (uint64_t)(ns))
#define MS_ARG(ns) (int64_t)(ns) < 0 ? "-" : "", (unsigned long long)(MS_ABS(ns) / 1000000), \
	(unsigned long long)(MS_ABS(ns) % 1000000)

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

static void task_row(const struct rq *rq, const struct task *p)
{
	bool fair = p->sched_class == &fair_sched_class;
	pr_info("%c %15s %5d " MS_FMT " " MS_FMT " " MS_FMT " %9llu %4d %4d %s",
		p == rq->curr ? 'R' : ' ', p->name, p->pid,
		MS_ARG(fair ? fair_key(rq, p) : 0), MS_ARG(p->se.sum_exec_runtime),
		MS_ARG(fair ? fair_wait_runtime(rq, p) : 0), (unsigned long long)p->stats.nr_switches,
		p->nice, p->prio, policy_name(p->policy));
}

static void dump_rq(struct rq *rq)
{
	uint64_t flags = spin_lock_irqsave(&rq->lock);
	update_rq_clock(rq);
	pr_info("cpu#%d", rq->cpu);
	pr_info("  .nr_running            : %u", rq->nr_running);
	pr_info("  .load                  : %llu", (unsigned long long)rq->load);
	pr_info("  .nr_switches           : %llu", (unsigned long long)rq->nr_switches);
	pr_info("  .clock                 : " MS_FMT, MS_ARG(rq->clock));
	pr_info("  .curr->pid             : %d (%s)", rq->curr->pid, rq->curr->name);
	pr_info("cfs_rq[%d]:", rq->cpu);
	pr_info("  .fair_clock            : " MS_FMT, MS_ARG(rq->cfs.fair_clock));
	pr_info("  .nr_running            : %u", rq->cfs.nr_running);
	pr_info("  .load                  : %llu", (unsigned long long)rq->cfs.load);
	pr_info("rt_rq[%d]:", rq->cpu);
	pr_info("  .rt_nr_running         : %u", rq->rt.nr_running);
	pr_info("  .rt_throttled          : %d", rq->rt.throttled);
	pr_info("  .rt_time               : " MS_FMT, MS_ARG(rq->rt.rt_time));
	pr_info("  .bitmap                : %016llx%016llx", (unsigned long long)rq->rt.bitmap[1],
		(unsigned long long)rq->rt.bitmap[0]);
	pr_info("runnable tasks:");
	pr_info("             task   PID         tree-key     exec-runtime     wait-runtime  switches nice prio policy");
	/* RT first, by priority (the running one sits at the head of its
	 * queue), then the running fair task, then the fair timeline in order. */
	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		struct list_node *n;
		list_for_each(n, &rq->rt.queue[prio])
			task_row(rq, list_entry(n, struct task, rt.run_list));
	}
	if (rq->cfs.curr)
		task_row(rq, rq->cfs.curr);
	for (struct rb_node *n = rb_first_cached(&rq->cfs.timeline); n; n = rb_next(n))
		task_row(rq, rb_entry(n, struct task, se.run_node));
	spin_unlock_irqrestore(&rq->lock, flags);
}

void sched_debug_dump(void)
{
	pr_info("Sched Debug Version: leftmost 1, now at " MS_FMT " msecs", MS_ARG(sched_clock()));
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			dump_rq(cpu_rq(cpu));
}

void sched_task_status(struct task *p)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	const struct sched_statistics *st = &p->stats;
	pr_info("%s (%d): %s %s nice %d prio %d cpu %d allowed %llx",
		p->name, p->pid, p->state == TASK_RUNNING ? "runnable" : p->state == TASK_SLEEPING ? "sleeping" :
		p->state == TASK_DEAD ? "dead" : "new", policy_name(p->policy), p->nice, p->prio, p->cpu,
		(unsigned long long)p->cpus_allowed);
	pr_info("  SCH-sum_exec_runtime: " MS_FMT "  SCH-sum_wait_runtime: " MS_FMT "  SCH-wait_max: " MS_FMT,
		MS_ARG(p->se.sum_exec_runtime), MS_ARG(st->sum_wait_runtime), MS_ARG(st->wait_max));
	pr_info("  SCH-nr_switches: %llu  SCH-nr_migrations: %llu  SCH-nr_wakeups: %llu  SCH-nr_preemptions: %llu",
		(unsigned long long)st->nr_switches, (unsigned long long)st->nr_migrations,
		(unsigned long long)st->nr_wakeups, (unsigned long long)st->nr_preemptions);
	task_rq_unlock(rq, flags);
}
