/*
 * The snapshots of kernel/fs/proc/process_info.h. The tree's lock keeps a process
 * from being released; its signal lock keeps its threads in its list, and
 * a thread's task from being freed while it is there. Scheduling fields
 * are read without their runqueue's lock: a snapshot of a running task is
 * a moment's view anyway, and each field is one aligned word.
 */
#include "kernel/fs/proc/process_info.h"
#include "kernel/task/thread.h"
#include "kernel/mm/vmm.h"
#include "arch/x86_64/trap.h"
#include "kernel/errno.h"
#include "lib/string.h"
#include "lib/util.h"

static char state_of(const struct task *p, bool stopped)
{
	if (stopped)
		return 'T';
	return task_state(p) == TASK_SLEEPING ? 'S' : 'R';
}

/* Under proc's signal lock. */
static void copy_thread(const struct process *proc, const struct thread *th, struct thread_info *out)
{
	struct task *p = th->task;
	const struct signals *s = &proc->signals;
	*out = (struct thread_info){
		.tid = p->pid, .policy = p->policy, .nice = p->nice, .prio = p->prio,
		.rt_priority = p->rt_priority, .cpu = p->cpu, .cpus_allowed = p->cpus_allowed,
		.start_ns = p->start_ns, .stats = p->stats,
		.state = state_of(p, __atomic_load_n(&s->stopped, __ATOMIC_RELAXED)),
		.pending = th->sent.pending, .shared_pending = s->shared.pending, .blocked = th->blocked,
	};
	for (int sig = 1; sig <= NSIG; sig++) {
		if (s->action[sig - 1].handler == SIG_IGN)
			out->ignored |= sigmask_of(sig);
		else if (s->action[sig - 1].handler != SIG_DFL)
			out->caught |= sigmask_of(sig);
	}
	memcpy(out->name, p->name, sizeof(out->name));
	out->name[sizeof(out->name) - 1] = '\0';
	out->time = task_cputime(p);
}

static struct cputime add(struct cputime a, struct cputime b)
{
	return (struct cputime){ a.user_ns + b.user_ns, a.system_ns + b.system_ns };
}

/* Under the tree lock: proc's threads, the leader first. */
static void copy_threads(struct process *proc, struct process_info *out)
{
	struct signals *s = &proc->signals;
	spin_lock(&s->lock);
	out->time = proc->dead_threads_time;
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct thread_info t;
		copy_thread(proc, list_entry(n, struct thread, node), &t);
		out->time = add(out->time, t.time);
		if (out->nr_threads++ == 0 || t.tid == proc->pid)
			out->leader = t;
	}
	spin_unlock(&s->lock);
}

int process_info(int pid, struct process_info *out)
{
	uint64_t flags = process_tree_lock();
	struct process *proc = process_find_locked(pid);
	if (!proc) {
		process_tree_unlock(flags);
		return -ESRCH;
	}
	*out = (struct process_info){
		.pid = proc->pid, .ppid = proc->parent ? proc->parent->pid : 0, .pgid = proc->pgid,
		.sid = proc->sid, .zombie = proc->exited, .exit_status = proc->wait_status,
		.children_time = proc->children_time, .cmdline_len = proc->cmdline_len,
	};
	memcpy(out->cmdline, proc->cmdline, proc->cmdline_len);
	if (proc->exited) {
		out->time = proc->time;
		out->leader = (struct thread_info){ .tid = pid, .state = 'Z', .cpu = -1 };
	} else {
		copy_threads(proc, out);
	}
	process_tree_unlock(flags);
	return 0;
}

/* Under the tree lock: thread tid of process pid, or NULL. Its task
 * stays while the caller holds the process's signal lock, which it must
 * take first (and is told where): NULL, nothing held. */
static struct task *find_thread_locked(int pid, int tid, struct spinlock **held)
{
	struct process *proc = process_find_locked(pid);
	if (!proc || proc->exited)
		return NULL;
	spin_lock(&proc->signals.lock);
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct task *p = list_entry(n, struct thread, node)->task;
		if (p->pid == tid) {
			*held = &proc->signals.lock;
			return p;
		}
	}
	spin_unlock(&proc->signals.lock);
	return NULL;
}

int process_task_show(int pid, int tid, struct text_sink *out)
{
	struct spinlock *held;
	uint64_t flags = process_tree_lock();
	struct task *p = find_thread_locked(pid, tid, &held);
	if (p) {
		sched_task_show(p, out);
		spin_unlock(held);
	}
	process_tree_unlock(flags);
	return p ? 0 : -ESRCH;
}

int thread_info(int pid, int tid, struct thread_info *out)
{
	struct spinlock *held;
	uint64_t flags = process_tree_lock();
	struct process *proc = process_find_locked(pid);
	struct task *p = find_thread_locked(pid, tid, &held);
	if (p) {
		copy_thread(proc, p->thread, out);
		spin_unlock(held);
	}
	process_tree_unlock(flags);
	return p ? 0 : -ESRCH;
}

/* The return addresses on a task's kernel stack, innermost first, as its
 * saved frame pointers chain them: sched_switch_to pushed rbp and then five
 * registers, over the return into schedule(). Only a task switched out
 * has a saved stack to read; one that wakes meanwhile may change it under
 * the reader, so every word is read with safe_read_u64 and only from
 * within the task's own stack (which stays while its signal lock is held). */
static int saved_frames(const struct task *p, uint64_t *pcs, int max)
{
	if (task_on_cpu(p))
		return 0;
	uint64_t top = (uint64_t)p->kstack_top, bottom = top - KSTACK_SIZE;
	uint64_t rsp = __atomic_load_n(&p->saved_rsp, __ATOMIC_RELAXED), rbp, ret;
	if (rsp < bottom || rsp + 7 * 8 > top || safe_read_u64((void *)(rsp + 5 * 8), &rbp) ||
	    safe_read_u64((void *)(rsp + 6 * 8), &ret))
		return 0;
	int n = 0;
	pcs[n++] = ret;
	while (n < max && rbp >= bottom && rbp + 16 <= top && !(rbp & 7)) {
		uint64_t next;
		if (safe_read_u64((void *)rbp, &next) || safe_read_u64((void *)(rbp + 8), &ret) || ret == 0)
			break;
		pcs[n++] = ret;
		if (next <= rbp)                  /* callers live higher up the stack */
			break;
		rbp = next;
	}
	return n;
}

int thread_stack(int pid, int tid, uint64_t *pcs, int max)
{
	struct spinlock *held;
	uint64_t flags = process_tree_lock();
	struct task *p = find_thread_locked(pid, tid, &held);
	int n = p ? saved_frames(p, pcs, max) : -ESRCH;
	if (p)
		spin_unlock(held);
	process_tree_unlock(flags);
	return n;
}

struct id_list {
	int *ids;
	int max, n;
};

static void note_id(struct id_list *l, int id)
{
	if (l->n < l->max)
		l->ids[l->n] = id;
	l->n++;
}

static void note_pid(struct process *proc, void *arg)
{
	note_id(arg, proc->pid);
}

int process_pids(int *pids, int max)
{
	struct id_list l = { pids, max, 0 };
	uint64_t flags = process_tree_lock();
	process_for_each_locked(note_pid, &l);
	process_tree_unlock(flags);
	return l.n;
}

int process_tids(int pid, int *tids, int max)
{
	struct id_list l = { tids, max, 0 };
	uint64_t flags = process_tree_lock();
	struct process *proc = process_find_locked(pid);
	if (proc) {
		spin_lock(&proc->signals.lock);
		struct list_node *n;
		list_for_each(n, &proc->threads)
			note_id(&l, list_entry(n, struct thread, node)->task->pid);
		spin_unlock(&proc->signals.lock);
	}
	process_tree_unlock(flags);
	return proc ? l.n : -ESRCH;
}
