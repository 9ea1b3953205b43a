/*
 * fork(): a new process that is a copy of the caller. Its address space is
 * the parent's, copy-on-write (mm_fork), its descriptors the same open
 * files (fdtable_fork), its scheduling policy, nice level and CPUs the
 * parent's thread's, as on Linux. Its thread starts in the kernel and goes
 * straight back to ring 3 with the parent's registers, but rax 0: fork()
 * returns 0 in the child.
 */
#include "kernel/process.h"
#include "kernel/cputime.h"
#include "kernel/fdtable.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"

static void resume_child(void *arg)
{
	struct user_regs regs = *(struct user_regs *)arg;
	kfree(arg);
	regs.rax = 0;
	cputime_to_user();
	arch_resume_user(&regs);
}

/* What Linux's fork copies of the scheduler's view of the parent. */
static void inherit_scheduling(struct task *child, struct task *parent)
{
	struct sched_param param;
	int policy = sched_getscheduler(parent->pid), nice;
	cpumask_t cpus;
	if (policy < 0 || sched_getparam(parent->pid, &param) < 0 || sched_get_nice(parent->pid, &nice) < 0 ||
	    sched_getaffinity(parent->pid, &cpus) < 0)
		return;                   /* only the parent itself asks: cannot fail */
	sched_setscheduler(child->pid, policy, &param);
	sched_set_nice(child->pid, nice);
	sched_setaffinity(child->pid, cpus);
}

int process_fork(const struct user_regs *regs)
{
	struct task *me = sched_current();
	struct process *parent = me->process;
	struct user_regs *child_regs = kmalloc(sizeof(*child_regs));
	struct mm *mm = child_regs ? mm_fork(parent->mm) : NULL;
	struct fdtable *files = mm ? fdtable_fork(parent->files) : NULL;
	struct process *proc = files ? process_create(mm, files) : NULL;
	struct task *child;
	if (proc)
		signals_fork(&proc->signals, &parent->signals);
	if (!proc || process_start(proc, parent, me->name, resume_child, child_regs, &child) < 0) {
		kfree(proc);
		if (files)
			fdtable_put(files);
		if (mm)
			mm_destroy(mm);
		kfree(child_regs);
		return -ENOMEM;
	}
	*child_regs = *regs;
	child->fs_base = me->fs_base;
	preempt_disable();                /* the registers are the parent's only while it runs */
	fpu_save(child->fpu);
	preempt_enable();
	inherit_scheduling(child, me);
	int pid = proc->pid;
	task_start(child);
	return pid;
}
