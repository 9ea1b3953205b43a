/*
 * A process's resource limits (getrlimit, setrlimit, prlimit64: Linux's
 * defaults for a new login, inherited by a fork) and its threads' nice
 * values by process, group or all (getpriority, setpriority).
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/thread.h"
#include "kernel/fs/fdtable.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"

/* Linux's limits for a new login, but descriptors: the table holds 256
 * (fdtable.h), which is this kernel's nr_open. */
#define UNLIMITED { RLIM_INFINITY, RLIM_INFINITY }
const struct rlimit default_rlimits[RLIM_NLIMITS] = {
	UNLIMITED,                            /* CPU */
	UNLIMITED,                            /* FSIZE */
	UNLIMITED,                            /* DATA */
	{ 8 << 20, RLIM_INFINITY },           /* STACK */
	{ 0, RLIM_INFINITY },                 /* CORE */
	UNLIMITED,                            /* RSS */
	{ 4096, 4096 },                       /* NPROC */
	{ FDTABLE_SIZE, FDTABLE_SIZE },       /* NOFILE */
	{ 8 << 20, 8 << 20 },                 /* MEMLOCK */
	UNLIMITED,                            /* AS */
	UNLIMITED,                            /* LOCKS */
	{ 4096, 4096 },                       /* SIGPENDING */
	{ 819200, 819200 },                   /* MSGQUEUE */
	{ 0, 0 },                             /* NICE */
	{ 0, 0 },                             /* RTPRIO */
	UNLIMITED,                            /* RTTIME */
};

long process_rlimit(int pid, int resource, const struct rlimit *new, struct rlimit *old)
{
	if (new && (new->cur > new->max || (resource == RLIMIT_NOFILE && new->max > FDTABLE_SIZE)))
		return new->cur > new->max ? -EINVAL : -EPERM;
	long ret = 0;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? current()->process : process_find_locked(pid);
	if (!p || p->exited) {
		ret = -ESRCH;
	} else {
		*old = p->rlimits[resource];
		if (new)
			p->rlimits[resource] = *new;   /* root may raise a hard limit */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_nice(bool all, int pgid, bool set, int nice, int *lowest)
{
	struct process *me = current()->process;
	int ret = -ESRCH;
	*lowest = MAX_NICE;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n, *m;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->exited || (!all && proc->pgid != (pgid ? pgid : me->pgid)))
			continue;
		assert_irqs_off();
		spin_lock(&proc->signals.lock);
		list_for_each(m, &proc->threads) {
			int pid = list_entry(m, struct thread, node)->task->pid, now;
			if (set)
				sched_set_nice(pid, nice);
			if (sched_get_nice(pid, &now) == 0 && now < *lowest)
				*lowest = now;
			ret = 0;
		}
		spin_unlock(&proc->signals.lock);
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}
