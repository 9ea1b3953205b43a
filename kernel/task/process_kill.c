/*
 * Signals sent to processes chosen by pid or group (kill, tgkill, the
 * terminal's signals to its foreground group), and what a stop or a
 * continue tells the parent: SIGCHLD, and a wake-up of its wait.
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/thread.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"

/* Under the tree lock: proc has stopped (by sig) or continued (sig
 * SIGCONT). Its parent gets SIGCHLD unless it asked SA_NOCLDSTOP, and a
 * waiting parent is woken. */
static void tell_parent_stop_or_continue(struct process *proc, int sig)
{
	assert_held(&tree.lock);
	if (!proc->parent)
		return;
	struct signals *s = &proc->parent->signals;
	assert_irqs_off();
	spin_lock(&s->lock);
	bool quiet = s->action[SIGCHLD - 1].flags & SA_NOCLDSTOP;
	spin_unlock(&s->lock);
	struct sig_info info = { .signo = SIGCHLD, .code = sig == SIGCONT ? CLD_CONTINUED : CLD_STOPPED,
				 .pid = proc->pid, .status = sig };
	if (!quiet)
		signal_send(proc->parent, &info);
	wake_up_locked(&tree, INT32_MAX);
}

void process_stop(int sig)
{
	struct process *proc = current()->process;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	/* In an orphaned group the terminal's stops are discarded, as POSIX
	 * asks: nobody could continue it. SIGSTOP stops all the same. */
	bool discarded = sig != SIGSTOP && group_orphaned_locked(proc->pgid, NULL);
	if (!discarded && signal_stop(proc, sig))
		tell_parent_stop_or_continue(proc, sig);
	spin_unlock_irqrestore(&tree.lock, flags);
}

/* Under the tree lock: SIGCONT continues proc whatever it does with the
 * signal itself (POSIX). */
static void continue_if_sigcont(struct process *proc, int signal)
{
	assert_held(&tree.lock);
	if (signal == SIGCONT && signal_continue(proc))
		tell_parent_stop_or_continue(proc, SIGCONT);
}

/* Under the tree lock: sig to each selected process but `skip`, from
 * `info` (kill()'s or the kernel's). 0, or -ESRCH if none was selected.
 * kill(-1, sig) also spares what the kernel started itself (init=,
 * /bin/init, a run= program), as Linux spares init, process 1: a program
 * may not take the machine's first program down with everything else. */
int send_to_selected(struct selection sel, const struct process *skip, const struct sig_info *info)
{
	assert_held(&tree.lock);
	int ret = -ESRCH;
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (!selected(proc, sel) || proc == skip || (sel.which == ANY && !proc->parent && !proc->orphan))
			continue;
		ret = 0;                      /* signal 0 only asks whether it exists, as a zombie too */
		if (info->signo && !proc->exited) {
			continue_if_sigcont(proc, info->signo);
			signal_send(proc, info);
		}
	}
	return ret;
}

int process_kill(int pid, int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;                    /* -pid would overflow: Linux's answer */
	struct process *me = current()->process;
	struct sig_info info = { .signo = signal, .pid = me ? me->pid : 0 };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	int ret = send_to_selected(select_by_pid(pid), pid == -1 ? me : NULL, &info);
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_signal_group(int pgid, int signal)
{
	struct sig_info info = { .signo = signal, .code = SI_KERNEL };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	int ret = send_to_selected((struct selection){ ONE_GROUP, pgid }, NULL, &info);
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_kill_thread(int tgid, int tid, int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	int ret = -ESRCH;
	struct sig_info info = { .signo = signal, .pid = current()->process->pid };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n, *m;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->exited || (tgid && proc->pid != tgid))
			continue;
		assert_irqs_off();
		spin_lock(&proc->signals.lock);
		list_for_each(m, &proc->threads) {
			struct thread *t = list_entry(m, struct thread, node);
			if (t->task->pid != tid)
				continue;
			ret = 0;
			if (signal)
				signal_send_thread_locked(proc, t, &info);
		}
		spin_unlock(&proc->signals.lock);
		if (ret == 0)
			continue_if_sigcont(proc, signal);   /* after: it takes the parent's signal lock */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}
