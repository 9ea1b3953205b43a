/*
 * The scheduling calls by process ID, with Linux's meaning and error values
 * (a negative errno): policy and RT priority, nice, CPU affinity, the RR
 * interval, yield and the priority limits. kernel/sys_sched.c's system calls
 * are these after copying their arguments, and the kernel calls them too
 * (set_user_nice() takes the task itself). pid 0 means the caller. A task's
 * settings are read and changed under its runqueue's lock.
 */
#include "sched/core.h"
#include "sched/balance.h"
#include "kernel/errno.h"

static struct task *find_task(int pid)
{
	if (pid < 0)
		return NULL;
	return sched_task_get(pid == 0 ? sched_current()->pid : pid);
}

static bool valid_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_FIFO || policy == SCHED_RR ||
	       policy == SCHED_BATCH || policy == SCHED_IDLE;
}

int sched_setscheduler(int pid, int policy, const struct sched_param *param)
{
	bool reset_on_fork = policy & SCHED_RESET_ON_FORK;
	policy &= ~SCHED_RESET_ON_FORK;
	if (!param || !valid_policy(policy))
		return -EINVAL;
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;
	/* RT policies take 1..99; the others only 0. */
	if (rt ? param->sched_priority < 1 || param->sched_priority > MAX_RT_PRIO - 1 : param->sched_priority != 0)
		return -EINVAL;
	struct task *p = find_task(pid);
	if (!p)
		return -ESRCH;
	sched_change_task(p, policy, param->sched_priority, SCHED_KEEP);
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	p->reset_on_fork = reset_on_fork;
	task_rq_unlock(rq, flags);
	sched_task_put(p);
	return 0;
}

/* What the calls below read, read under the lock it is written under. */
struct settings {
	int policy, rt_priority, nice;    /* policy with SCHED_RESET_ON_FORK, if set */
	cpumask_t cpus_allowed;
};

static int read_settings(int pid, struct settings *out)
{
	struct task *p = find_task(pid);
	if (!p)
		return -ESRCH;
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	*out = (struct settings){ p->policy | (p->reset_on_fork ? SCHED_RESET_ON_FORK : 0), p->rt_priority, p->nice,
				  p->cpus_allowed };
	task_rq_unlock(rq, flags);
	sched_task_put(p);
	return 0;
}

int sched_getscheduler(int pid)
{
	struct settings s;
	int err = read_settings(pid, &s);
	return err ? err : s.policy;
}

int sched_rr_get_interval(int pid, uint64_t *ns)
{
	struct task *p = find_task(pid);
	if (!p)
		return -ESRCH;
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	const struct sched_class *class = p->sched_class;
	*ns = class->get_rr_interval ? class->get_rr_interval(rq, p) : 0;
	task_rq_unlock(rq, flags);
	sched_task_put(p);
	return 0;
}

int sched_getparam(int pid, struct sched_param *param)
{
	struct settings s;
	int err = param ? read_settings(pid, &s) : -EINVAL;
	if (!err)
		param->sched_priority = s.rt_priority;
	return err;
}

int sched_set_nice(int pid, int nice)
{
	if (nice < MIN_NICE || nice > MAX_NICE)
		return -EINVAL;
	struct task *p = find_task(pid);
	if (!p)
		return -ESRCH;
	set_user_nice(p, nice);
	sched_task_put(p);
	return 0;
}

int sched_get_nice(int pid, int *nice)
{
	struct settings s;
	int err = nice ? read_settings(pid, &s) : -EINVAL;
	if (!err)
		*nice = s.nice;
	return err;
}

void set_user_nice(struct task *p, int nice)
{
	nice = nice < MIN_NICE ? MIN_NICE : nice > MAX_NICE ? MAX_NICE : nice;
	sched_change_task(p, SCHED_KEEP, SCHED_KEEP, nice);
}

static cpumask_t online_mask(void)
{
	cpumask_t mask = 0;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			mask |= 1ULL << cpu;
	return mask;
}

int sched_setaffinity(int pid, cpumask_t mask)
{
	if (!(mask & online_mask()))
		return -EINVAL;
	struct task *p = find_task(pid);
	if (!p)
		return -ESRCH;

	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	p->cpus_allowed = mask;
	bool must_move = !(mask & (1ULL << rq->cpu));
	bool running = rq->curr == p;
	if (must_move && running)
		resched_curr(rq);                /* it moves on its way out (schedule()) */
	task_rq_unlock(rq, flags);

	if (must_move && !running)
		migrate_to_allowed_cpu(p);
	sched_task_put(p);
	return 0;
}

int sched_getaffinity(int pid, cpumask_t *mask)
{
	struct settings s;
	int err = mask ? read_settings(pid, &s) : -EINVAL;
	if (!err)
		*mask = s.cpus_allowed;
	return err;
}

int sched_yield(void)
{
	sched_yield_current();
	return 0;
}

int sched_get_priority_max(int policy)
{
	if (!valid_policy(policy))
		return -EINVAL;
	return policy == SCHED_FIFO || policy == SCHED_RR ? MAX_RT_PRIO - 1 : 0;
}

int sched_get_priority_min(int policy)
{
	if (!valid_policy(policy))
		return -EINVAL;
	return policy == SCHED_FIFO || policy == SCHED_RR ? 1 : 0;
}
