/*
 * fork() and clone(): a new process that is a copy of the caller, or a new
 * thread in the caller's process. A new process's address space is the
 * parent's, copy-on-write (mm_fork), its descriptors the same open files
 * (fdtable_fork); a new thread shares both. Either way the new task's
 * scheduling policy, nice level and CPUs are the creator's, as on Linux
 * (sched_fork, from process_add_thread), and it starts in the kernel only to go straight to ring 3 with the
 * creator's registers, but rax 0 (clone returns 0 in the child) and the
 * stack and FS base clone asked for.
 */
#include "kernel/task/process.h"
#include "kernel/task/thread.h"
#include "kernel/fs/fdtable.h"
#include "kernel/task/kthread.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/fs/pipe.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "lib/string.h"
#include "lib/time_units.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "sched/wait.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"

/* Linux's clone flags (the low byte is the signal the parent gets). */
enum {
	CSIGNAL = 0xff, CLONE_VM = 0x100, CLONE_FS = 0x200, CLONE_FILES = 0x400,
	CLONE_SIGHAND = 0x800, CLONE_VFORK = 0x4000, CLONE_THREAD = 0x10000,
	CLONE_SYSVSEM = 0x40000, CLONE_SETTLS = 0x80000, CLONE_PARENT_SETTID = 0x100000,
	CLONE_CHILD_CLEARTID = 0x200000, CLONE_DETACHED = 0x400000, CLONE_CHILD_SETTID = 0x01000000,
};
#define CLONE_UNDERSTOOD (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | \
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
			  CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_CHILD_SETTID)
#define CLONE_A_THREAD (CLONE_VM | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD)

/* What the new task needs once it runs. */
struct child_start {
	struct user_regs regs;
	uint64_t set_tid;                 /* CLONE_CHILD_SETTID: write the tid here, in its own memory */
};

static void resume_child(void *arg)
{
	struct child_start start = *(struct child_start *)arg;
	kfree(arg);
	struct task *me = current();
	if (start.set_tid)
		copy_to_user((void *)start.set_tid, &me->pid, sizeof(me->pid));   /* a bad address: as Linux, no matter */
	start.regs.rax = 0;
	arch_resume_user(&start.regs);
}

/* A new process, its first thread created but not started: 0, -ENOMEM, or
 * -EAGAIN at the kernel's limit of tasks. */
static int new_process(struct child_start *start, struct task **out)
{
	struct task *me = current();
	struct process *parent = me->process;
	mutex_lock(&parent->mm->lock);
	struct mm *mm = mm_fork(parent->mm);
	mutex_unlock(&parent->mm->lock);
	struct fdtable *files = mm ? fdtable_fork(parent->files) : NULL;
	struct process *proc = files ? process_create(mm, files) : NULL;
	if (proc)
		signals_fork(&proc->signals, &parent->signals);
	int err = -ENOMEM;
	if (!proc || (err = process_start(proc, parent, me->name, resume_child, start, out)) < 0) {
		kfree(proc);
		if (files)
			fdtable_put(files);
		if (mm)
			mm_destroy(mm);
		return err;
	}
	return 0;
}

long process_clone(const struct user_regs *regs, const struct clone_args *args)
{
	uint64_t flags = args->flags;
	bool thread = flags & CLONE_THREAD;
	/* Linux's rules; and what leftmost does not offer: an address space
	 * shared without being a thread (but vfork's, which it copies), a
	 * thread with descriptors of its own. */
	if ((flags & ~(uint64_t)CLONE_UNDERSTOOD) || (thread && !(flags & CLONE_SIGHAND)) ||
	    ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM)) ||
	    (thread ? (flags & CLONE_A_THREAD) != CLONE_A_THREAD :
		      (flags & CLONE_VM) && !(flags & CLONE_VFORK)))
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && args->tls >= USER_TOP)
		return -EPERM;                /* as arch_prctl(ARCH_SET_FS): the FS base must be a user address */
	struct task *me = current(), *child;
	struct child_start *start = kmalloc(sizeof(*start));
	if (!start)
		return -ENOMEM;
	*start = (struct child_start){ .regs = *regs };
	if (args->stack)
		start->regs.rsp = args->stack;
	if (flags & CLONE_CHILD_SETTID)
		start->set_tid = args->child_tid;
	int err = thread ? process_add_thread(me->process, me->thread, false, me->name, resume_child, start, &child)
			 : new_process(start, &child);
	if (err) {
		kfree(start);
		return err;
	}
	child->fs_base = flags & CLONE_SETTLS ? args->tls : me->fs_base;
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = args->child_tid;
	preempt_disable();                /* the registers are the creator's only while it runs */
	fpu_save(child->fpu);
	preempt_enable();
	int tid = child->pid;
	if (flags & CLONE_PARENT_SETTID)
		copy_to_user((void *)args->parent_tid, &tid, sizeof(tid));   /* a bad address: as Linux, no matter */
	task_start(child);
	return tid;
}

int process_fork(const struct user_regs *regs)
{
	const struct clone_args args = { .flags = SIGCHLD };
	return (int)process_clone(regs, &args);
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/fork_test.c"
