/*
 * Process groups and sessions, Linux's rules: setpgid, getpgid, setsid,
 * getsid, the terminal's questions about a group, and orphaned groups
 * (POSIX): a group whose every member's parent is outside the session or
 * in the group itself has nobody left who could continue it by job
 * control, so when a process's end orphans a group with a stopped member,
 * each member is sent SIGHUP, then SIGCONT.
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"

int process_setpgid(int pid, int pgid)
{
	struct process *me = current()->process;
	if (pgid < 0)
		return -EINVAL;
	int ret = 0;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? me : process_find_locked(pid);
	if (pgid == 0)
		pgid = p ? p->pid : 0;
	if (!p || p->exited || (p != me && p->parent != me))
		ret = -ESRCH;                     /* only itself or a child of its own */
	else if (p->sid != me->sid || p->sid == p->pid)
		ret = -EPERM;                     /* another session, or a session leader */
	else if (p != me && p->execed)
		ret = -EACCES;
	else if (pgid != p->pid) {
		/* Joining a group: it must exist, in the same session. */
		ret = -EPERM;
		struct list_node *n;
		list_for_each(n, &all_processes) {
			struct process *q = list_entry(n, struct process, all);
			if (q->pgid == pgid && q->sid == me->sid && !q->exited)
				ret = 0;
		}
	}
	if (!ret)
		p->pgid = pgid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

/* getpgid and getsid: pid 0 is the caller. */
static int get_group_or_session(int pid, bool session)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? current()->process : process_find_locked(pid);
	int ret = !p ? -ESRCH : session ? p->sid : p->pgid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_getpgid(int pid)
{
	return pid < 0 ? -ESRCH : get_group_or_session(pid, false);
}

int process_getsid(int pid)
{
	return pid < 0 ? -ESRCH : get_group_or_session(pid, true);
}

int process_setsid(void)
{
	struct process *me = current()->process;
	int ret = me->pid;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes)   /* a group leader, or its group lives on elsewhere */
		if (list_entry(n, struct process, all)->pgid == me->pid)
			ret = -EPERM;
	if (ret > 0)
		me->sid = me->pgid = me->pid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

/* Under the tree lock: does member keep its group from being orphaned
 * (POSIX)? It does if its parent, in another group of the same session,
 * could stop and continue it by job control; `leaving` and its children
 * do not count, as it ends. */
static bool holds_group(const struct process *member, const struct process *leaving)
{
	assert_held(&tree.lock);
	const struct process *parent = member->parent;
	return member != leaving && !member->exited && parent && parent != leaving && parent->pgid != member->pgid &&
	       parent->sid == member->sid;
}

bool group_orphaned_locked(int pgid, const struct process *leaving)
{
	assert_held(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid == pgid && holds_group(proc, leaving))
			return false;
	}
	return true;
}

int process_group_in_session(int pgid, int sid)
{
	int ret = -ESRCH;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid == pgid && !proc->exited)
			ret = proc->sid == sid ? 0 : -EPERM;   /* a group lives in one session */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

bool process_group_orphaned(int pgid)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	bool orphaned = group_orphaned_locked(pgid, NULL);
	spin_unlock_irqrestore(&tree.lock, flags);
	return orphaned;
}

/* Under the tree lock: if leaving's end orphans group pgid and a member
 * is stopped, nobody is left who could continue it, so POSIX has each
 * member sent SIGHUP, then SIGCONT. One walk tells both. */
static void hang_up_if_orphaned(int pgid, struct process *leaving)
{
	bool stopped = false;
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid != pgid)
			continue;
		if (holds_group(proc, leaving))
			return;                       /* not orphaned */
		stopped |= !proc->exited && __atomic_load_n(&proc->signals.stopped, __ATOMIC_RELAXED);
	}
	if (!stopped)
		return;
	struct selection group = { ONE_GROUP, pgid };
	const struct sig_info hup = { .signo = SIGHUP, .code = SI_KERNEL }, cont = { .signo = SIGCONT, .code = SI_KERNEL };
	send_to_selected(group, leaving, &hup);
	send_to_selected(group, leaving, &cont);
}

/* Under the tree lock, as proc ends: the groups it may have held, its own
 * and those of its children in its session, each checked as above. */
void hang_up_orphaned_groups(struct process *proc)
{
	assert_held(&tree.lock);
	if (holds_group(proc, NULL))
		hang_up_if_orphaned(proc->pgid, proc);
	struct list_node *n;
	list_for_each(n, &proc->children) {
		struct process *c = list_entry(n, struct process, sibling);
		if (c->pgid != proc->pgid && c->sid == proc->sid)
			hang_up_if_orphaned(c->pgid, proc);
	}
}
