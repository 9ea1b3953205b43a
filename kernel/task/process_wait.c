/*
 * Waiting for a child (wait4, waitid, and the kernel's own wait for a
 * program it started): sleep on the tree's wait queue until a child the
 * wait selects has ended, stopped or continued, then report it and, for
 * an end, reap it: its CPU time goes to its parent's children's sum and
 * it leaves the tree.
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"

/* Sleep until `found` says a child is ready or that none will be: it runs
 * under the tree lock, returns nonzero to stop (and what to return). A
 * signal ends the wait with -ERESTARTSYS (the kernel's own waits get none). */
static int wait_in_tree(int (*found)(void *arg), void *arg, bool nohang)
{
	for (;;) {
		uint64_t flags = wait_prepare(&tree);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against a signal's sender: sched/wait.h */
		int ret = task_signal_pending(current()) ? -ERESTARTSYS : found(arg);
		if (ret || nohang) {
			wait_cancel(&tree, flags);
			if (ret > 0)
				released();           /* the child, if it was reaped */
			return ret;
		}
		wait_sleep(&tree, flags);
	}
}

struct child_wait {
	struct process *parent;           /* NULL: a process the kernel started */
	struct selection sel;
	int options;                      /* WEXITED, WSTOPPED, WCONTINUED: what to report; WNOWAIT:
	                                     report it, and leave it to be waited for again */
	int status;
	struct cputime time;
};

/* Under the tree lock: a stop or continue of running child c that w wants
 * told, its wait status (taken, unless WNOWAIT); else 0. */
static int take_report(struct process *c, const struct child_wait *w)
{
	assert_held(&tree.lock);
	struct signals *s = &c->signals;
	assert_irqs_off();
	spin_lock(&s->lock);
	int status = s->wait_report;
	bool wanted = status && (w->options & (wait_status_is_stop(status) ? WSTOPPED : WCONTINUED));
	if (wanted && !(w->options & WNOWAIT))
		s->wait_report = 0;
	spin_unlock(&s->lock);
	return wanted ? status : 0;
}

/* Under the tree lock: the pid of a child with something to report: an
 * end (the child is then released) or, if asked, a stop or continue; else
 * 0 while a wanted child still runs, -ECHILD if none. */
static int reap_ended_child(void *arg)
{
	assert_held(&tree.lock);
	struct child_wait *w = arg;
	struct list_node *n, *tmp;
	bool any = false;
	list_for_each_safe(n, tmp, w->parent ? &w->parent->children : &all_processes) {
		struct process *c = w->parent ? list_entry(n, struct process, sibling) :
						list_entry(n, struct process, all);
		if (c->parent != w->parent || c->orphan || !selected(c, w->sel))
			continue;
		any = true;
		if (!c->exited) {
			w->status = take_report(c, w);
			if (w->status)
				return c->pid;
			continue;
		}
		if (!(w->options & WEXITED))
			continue;
		int pid = c->pid;
		w->status = c->wait_status;
		w->time = cputime_sum(c->time, c->children_time);
		if (w->options & WNOWAIT)
			return pid;
		if (w->parent)
			w->parent->children_time = cputime_sum(w->parent->children_time, w->time);
		release(c);
		return pid;
	}
	return any ? 0 : -ECHILD;
}

int process_wait_child(int pid, int options, int *status, struct cputime *time)
{
	struct child_wait w = { .parent = current()->process, .sel = select_by_pid(pid),
				.options = WEXITED | (options & (WUNTRACED | WCONTINUED)) };
	int ret = wait_in_tree(reap_ended_child, &w, options & WNOHANG);
	if (ret > 0) {
		*status = w.status;
		*time = w.time;
	}
	return ret;
}

int process_wait(int pid, int *status)
{
	if (pid <= 0)
		return -ECHILD;
	struct child_wait w = { .parent = NULL, .sel = { ONE_PID, pid }, .options = WEXITED };
	int ret = wait_in_tree(reap_ended_child, &w, false);
	if (ret > 0 && status)
		*status = w.status;
	return ret;
}

int process_waitid(int idtype, int id, int options, int *pid, int *status)
{
	enum { P_ALL = 0, P_PID = 1, P_PGID = 2 };
	struct process *me = current()->process;
	struct child_wait w = { .parent = me, .options = options };
	if (idtype == P_ALL)
		w.sel = (struct selection){ ANY, 0 };
	else if (idtype == P_PID && id > 0)
		w.sel = (struct selection){ ONE_PID, id };
	else if (idtype == P_PGID && id >= 0)
		w.sel = (struct selection){ ONE_GROUP, id ? id : me->pgid };
	else
		return -EINVAL;
	int ret = wait_in_tree(reap_ended_child, &w, options & WNOHANG);
	*pid = ret > 0 ? ret : 0;
	*status = w.status;
	return ret < 0 ? ret : 0;
}
