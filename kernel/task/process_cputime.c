/*
 * The CPU time of processes: a process's is its threads', the ended ones'
 * too; its children's is the sum of those it has reaped (times(),
 * getrusage(), wait4's rusage, /proc).
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/thread.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"

struct cputime cputime_sum(struct cputime a, struct cputime b)
{
	return (struct cputime){ a.user_ns + b.user_ns, a.system_ns + b.system_ns };
}

struct cputime process_children_cpu_time(void)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct cputime time = current()->process->children_time;
	spin_unlock_irqrestore(&tree.lock, flags);
	return time;
}

/* The CPU time of proc's threads, those that have ended too. */
static struct cputime threads_time(struct process *proc)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	struct cputime time = proc->dead_threads_time;
	struct list_node *n;
	list_for_each(n, &proc->threads)
		time = cputime_sum(time, task_cputime(list_entry(n, struct thread, node)->task));
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return time;
}

struct cputime process_self_cpu_time(void)
{
	return threads_time(current()->process);
}

int process_thread_cpu_time(int tid, struct cputime *time)
{
	struct process *proc = current()->process;
	int ret = -ESRCH;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct task *p = list_entry(n, struct thread, node)->task;
		if (p->pid == tid) {
			*time = task_cputime(p);
			ret = 0;
		}
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return ret;
}

int process_cpu_time(int pid, struct cputime *time)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *proc = process_find_locked(pid);
	/* It cannot end meanwhile: ending takes this lock. */
	if (proc)
		*time = proc->exited ? proc->time : threads_time(proc);
	spin_unlock_irqrestore(&tree.lock, flags);
	return proc ? 0 : -ESRCH;
}
