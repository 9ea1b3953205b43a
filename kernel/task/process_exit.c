/*
 * A thread's and a process's end. Each thread leaves by itself (exit(),
 * or a signal that ends it); exit_group() and a fatal signal first tell
 * every other thread to go. The last thread out ends the process: its
 * address space, descriptors and directory go, its groups are checked
 * for orphaning, its children lose their parent, and its parent hears
 * (SIGCHLD, the tree's wait queue). execve() in a threaded process waits
 * here for the other threads to go (process_become_single_threaded).
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/futex.h"
#include "kernel/task/kthread.h"
#include "kernel/task/thread.h"
#include "kernel/tty/tty.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/mm/kmalloc.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"

/* Under the tree lock: proc's children will have nobody to wait for them. */
static void orphan_children(struct process *proc)
{
	assert_held(&tree.lock);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &proc->children) {
		struct process *c = list_entry(n, struct process, sibling);
		list_remove(&c->sibling);
		c->parent = NULL;
		c->orphan = true;
		if (c->exited) {
			release(c);
		} else if (c->parent_death_signal) {
			struct sig_info info = { .signo = c->parent_death_signal, .pid = proc->pid };
			signal_send(c, &info);
		}
	}
}

/* Under the tree lock: SIGCHLD to proc's parent, as Linux sends it. False
 * if the parent ignores SIGCHLD (or asked SA_NOCLDWAIT): then, by POSIX,
 * it does not wait for its children, which go as they end. */
static bool tell_parent(struct process *proc)
{
	assert_held(&tree.lock);
	struct signals *s = &proc->parent->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	const struct k_sigaction *act = &s->action[SIGCHLD - 1];
	bool waits = act->handler != SIG_IGN && !(act->flags & SA_NOCLDWAIT);
	spin_unlock_irqrestore(&s->lock, flags);
	int killed_by = wait_status_signal(proc->wait_status);
	struct sig_info info = {
		.signo = SIGCHLD, .code = killed_by ? CLD_KILLED : CLD_EXITED, .pid = proc->pid,
		.status = killed_by ? killed_by : wait_status_code(proc->wait_status),
	};
	signal_send(proc->parent, &info);
	return waits;
}

/* The process's last thread has left: its address space and descriptors
 * go, and its parent hears of its end. */
static void end_process(struct process *proc)
{
	if (proc->sid == proc->pid)
		tty_session_ended(proc->sid);     /* a leader's sid is its for good */
	mm_destroy(proc->mm);
	fdtable_put(proc->files);         /* may wake a pipe's other end: before the parent hears */
	inode_put(proc->cwd);
	signals_exit(&proc->signals);
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	hang_up_orphaned_groups(proc);
	orphan_children(proc);              /* and send those that asked their parent-death signal */
	proc->time = proc->dead_threads_time;
	proc->wait_status = proc->exit_status;
	proc->exited = true;
	if (proc->parent && !tell_parent(proc))
		proc->orphan = true;          /* the parent will not wait: as if it had none */
	if (proc->orphan)
		release(proc);
	wake_up_locked(&tree, INT32_MAX);   /* a waiting parent: this child, or none left */
	spin_unlock_irqrestore(&tree.lock, flags);
	released();                         /* itself, or children that had ended */
}

/* CLONE_CHILD_CLEARTID, set_tid_address(): the C library's thread join
 * waits on this word, for 0. */
static void clear_child_tid(struct task *me)
{
	uint32_t zero = 0;
	if (me->clear_child_tid && copy_to_user((void *)me->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake(me->clear_child_tid, true, 1, FUTEX_BITSET_ANY);
}

/* The calling thread leaves its process; the last one out ends it. */
static void __attribute__((noreturn)) leave(int status)
{
	struct task *me = current();
	struct thread *t = me->thread;
	struct process *proc = me->process;
	clear_child_tid(me);
	struct cputime time = task_cputime(me);
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	list_remove(&t->node);
	bool last = list_empty(&proc->threads);
	if (!proc->group_exiting)
		proc->exit_status = status;   /* without exit_group(), the last thread's says (as Linux) */
	proc->dead_threads_time = cputime_sum(proc->dead_threads_time, time);
	/* A kernel task from here on, in the step that takes it off the list:
	 * the last thread out destroys the address space, and none that left
	 * before it may be switched in on those tables again. */
	me->process = NULL;
	me->thread = NULL;
	mm_activate(NULL);
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	kfree(me->fpu);
	me->fpu = NULL;
	kfree(t);
	if (last)
		end_process(proc);
	else
		wake_up_all(&tree);       /* an execve() waiting for the other threads to go */
	task_exit(status);
}

/* Under proc's signal lock: every thread but `keep` is to end. */
static void kill_other_threads(struct process *proc, struct thread *keep)
{
	assert_held(&proc->signals.lock);
	struct sig_info info = { .signo = SIGKILL, .pid = proc->pid };
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct thread *t = list_entry(n, struct thread, node);
		if (t != keep)
			signal_send_thread_locked(proc, t, &info);
	}
}

void process_exit(int status)
{
	struct task *me = current();
	struct process *proc = me->process;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	if (!proc->group_exiting) {
		proc->group_exiting = true;
		proc->exit_status = status;
		kill_other_threads(proc, me->thread);
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	leave(status);
}

void thread_exit(int status)
{
	leave(status);
}

/* Is the caller its process's only thread? */
static bool alone(struct process *proc)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool one = proc->threads.next == proc->threads.prev;
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return one;
}

bool process_become_single_threaded(void)
{
	struct task *me = current();
	struct process *proc = me->process;
	if (alone(proc))
		return true;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool lost = proc->group_exiting;  /* to an exit_group() or another execve() */
	if (!lost) {
		proc->group_exiting = true;
		kill_other_threads(proc, me->thread);
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	if (lost)
		return false;
	wait_event(&tree, alone(proc));   /* each leaving thread wakes the tree */
	flags = spin_lock_irqsave(&proc->signals.lock);
	proc->group_exiting = false;
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return true;
}
