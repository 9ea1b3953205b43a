/*
 * Signals: sending, blocking and acting on them (kernel/signal.h). A
 * sender sets a pending bit under the receiver's signal lock and, if the
 * signal is not blocked, marks the thread (sigpending) and wakes it: an
 * interruptible sleep (sched/wait.h) ends with -EINTR or -ERESTARTSYS.
 * The receiver acts on its way back to ring 3 (exit_to_user, after every
 * system call and interrupt): the default action, or a handler entered
 * through a frame on its stack (kernel/signal_frame.c).
 */
#include "kernel/signal.h"
#include "kernel/signal_frame.h"
#include "kernel/process.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/user.h"
#include "lib/string.h"
#include "lib/time_units.h"
#include "arch/x86_64/time.h"

static void alarm_fired(struct timer *t);

void signals_init(struct signals *s)
{
	memset(s, 0, sizeof(*s));
	s->lock = (struct spinlock)SPINLOCK_INIT("signals");
	s->alarm = (struct timer)TIMER_INIT(alarm_fired);
}

/* Linux's fork: the actions and the blocked mask are inherited, pending
 * signals and the alarm are not. */
void signals_fork(struct signals *child, const struct signals *parent)
{
	signals_init(child);
	memcpy(child->action, parent->action, sizeof(child->action));
	child->blocked = parent->blocked;
}

/* exec: a handler's address means nothing in the new program. */
void signals_exec(struct signals *s)
{
	uint64_t flags = spin_lock_irqsave(&s->lock);
	for (int i = 0; i < NSIG; i++)
		if (s->action[i].handler != SIG_IGN)
			s->action[i] = (struct k_sigaction){ .handler = SIG_DFL };
	s->altstack = (struct user_stack){ .flags = 0 };
	spin_unlock_irqrestore(&s->lock, flags);
}

void signals_exit(struct signals *s)
{
	timer_cancel(&s->alarm);          /* also waits for its callback, which uses the process */
}

/* Linux's signal(7): the default action of each signal. */
static bool ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT ||
	       sig > SIGSYS;              /* real-time signals end a process, but need handlers to be of use */
}

/* Stopping needs job control, which comes with the shell (issue 13): until
 * then the stop signals do nothing, SIGSTOP included. */
static bool stops_by_default(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

bool signal_kills_by_default(int sig)
{
	return !ignored_by_default(sig) && !stops_by_default(sig);
}

static bool wanted_locked(const struct signals *s, int sig)
{
	uint64_t handler = s->action[sig - 1].handler;
	if (handler == SIG_IGN)
		return false;
	return handler != SIG_DFL || signal_kills_by_default(sig);
}

bool signal_wanted(struct process *proc, int sig)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool wanted = wanted_locked(&proc->signals, sig);
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return wanted;
}

/* Under the lock: tell the thread if something it does not block waits. */
static void notify_thread(struct process *proc)
{
	struct signals *s = &proc->signals;
	struct task *thread = proc->thread;
	if (!thread || !(s->pending & ~s->blocked))
		return;
	__atomic_store_n(&thread->sigpending, true, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against the sleeper: sched/wait.h */
	wake_up_process(thread);
}

/* Under the lock, by the thread itself: is a signal it does not block
 * pending? Only the thread clears its mark: a sender only ever sets it. */
static void recalc_sigpending(struct task *me, const struct signals *s)
{
	__atomic_store_n(&me->sigpending, (s->pending & ~s->blocked) != 0, __ATOMIC_RELAXED);
}

void signal_send(struct process *proc, const struct sig_info *info)
{
	struct signals *s = &proc->signals;
	int sig = info->signo;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	if (sig == SIGKILL || wanted_locked(s, sig)) {
		if (!(s->pending & sigmask_of(sig)))
			s->info[sig - 1] = *info;     /* one of each waits: the first says who */
		s->pending |= sigmask_of(sig);
		notify_thread(proc);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

void signal_set_blocked(sigset_t blocked)
{
	struct process *proc = sched_current()->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	s->blocked = blocked & ~UNBLOCKABLE;
	recalc_sigpending(sched_current(), s);   /* a signal it has just unblocked, or blocked */
	spin_unlock_irqrestore(&s->lock, flags);
}

long signal_action(int sig, const struct k_sigaction *act, struct k_sigaction *old)
{
	if (sig < 1 || sig > NSIG || (act && (sigmask_of(sig) & UNBLOCKABLE)))
		return -EINVAL;
	struct process *proc = sched_current()->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	if (old)
		*old = s->action[sig - 1];
	if (act) {
		s->action[sig - 1] = *act;
		s->action[sig - 1].mask &= ~UNBLOCKABLE;
		if (!wanted_locked(s, sig))
			s->pending &= ~sigmask_of(sig);   /* POSIX: ignoring a signal drops it */
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}

void signal_restart_syscall(struct user_regs *regs, uint64_t nr)
{
	regs->rax = nr;
	regs->rip -= 2;                       /* back onto the 2-byte `syscall` */
	sched_current()->process->signals.restarting = true;
}

/* Under the lock: take the lowest pending signal that is not blocked (0 if none). */
static int take_signal(struct signals *s, struct sig_info *info, struct k_sigaction *act)
{
	sigset_t ready = s->pending & ~s->blocked;
	if (!ready)
		return 0;
	int sig = __builtin_ctzll(ready) + 1;
	s->pending &= ~sigmask_of(sig);
	*info = s->info[sig - 1];
	*act = s->action[sig - 1];
	if (act->handler > SIG_IGN && (act->flags & SA_RESETHAND))
		s->action[sig - 1] = (struct k_sigaction){ .handler = SIG_DFL };
	return sig;
}

static bool on_altstack(const struct signals *s, uint64_t sp)
{
	return s->altstack.size && sp > s->altstack.sp && sp - s->altstack.sp <= s->altstack.size;
}

/* Enter act's handler for sig: 0, or -EFAULT if the frame could not be written. */
static int enter_handler(struct user_regs *regs, struct signals *s, int sig, const struct sig_info *info,
			 const struct k_sigaction *act)
{
	if (s->restarting && !(act->flags & SA_RESTART)) {
		regs->rip += 2;                   /* the interrupted call fails after all */
		regs->rax = (uint64_t)-EINTR;
	}
	s->restarting = false;
	sigset_t restore = s->restore_blocked ? s->saved_blocked : s->blocked;
	s->restore_blocked = false;
	uint64_t top = regs->rsp;
	if ((act->flags & SA_ONSTACK) && s->altstack.size && !on_altstack(s, regs->rsp))
		top = s->altstack.sp + s->altstack.size;
	struct signal_frame_args a = {
		.handler = act->handler, .restorer = act->restorer, .stack_top = top, .info = info,
		.blocked = restore, .altstack = s->altstack,
	};
	int err = signal_frame_push(regs, &a);
	if (!err) {
		sigset_t more = act->mask | (act->flags & SA_NODEFER ? 0 : sigmask_of(sig));
		signal_set_blocked(s->blocked | more);
	}
	return err;
}

void signal_deliver(struct user_regs *regs)
{
	struct task *me = sched_current();
	struct process *proc = me->process;
	struct signals *s = &proc->signals;
	for (;;) {
		struct sig_info info;
		struct k_sigaction act;
		uint64_t flags = spin_lock_irqsave(&s->lock);
		int sig = take_signal(s, &info, &act);
		recalc_sigpending(me, s);
		spin_unlock_irqrestore(&s->lock, flags);
		if (!sig)
			break;
		if (act.handler == SIG_IGN || (act.handler == SIG_DFL && !signal_kills_by_default(sig)))
			continue;
		irq_enable();                     /* ending sleeps; the frame may fault in pages */
		if (act.handler == SIG_DFL || enter_handler(regs, s, sig, &info, &act) < 0)
			process_exit(wait_status_killed(act.handler == SIG_DFL ? sig : SIGSEGV));
		irq_disable();
		return;                           /* one handler at a time: the rest at the next return */
	}
	s->restarting = false;                /* no handler came: the call runs again */
	if (s->restore_blocked) {
		s->restore_blocked = false;
		signal_set_blocked(s->saved_blocked);
	}
}

long signal_return(struct user_regs *regs)
{
	struct process *proc = sched_current()->process;
	sigset_t blocked;
	struct user_stack altstack;
	if (signal_frame_pop(regs, &blocked, &altstack) < 0) {
		/* A frame the kernel cannot read: Linux kills with SIGSEGV. */
		struct sig_info info = { .signo = SIGSEGV };
		uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
		proc->signals.action[SIGSEGV - 1].handler = SIG_DFL;
		spin_unlock_irqrestore(&proc->signals.lock, flags);
		signal_send(proc, &info);
		return (long)regs->rax;
	}
	(void)altstack;                   /* Linux restores it too, if the handler changed it in
	                                     the frame; programs never do */
	signal_set_blocked(blocked);
	return (long)regs->rax;           /* what the interrupted code had in rax, untouched */
}

long signal_suspend(sigset_t mask)
{
	struct process *proc = sched_current()->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	s->saved_blocked = s->blocked;
	s->restore_blocked = true;
	spin_unlock_irqrestore(&s->lock, flags);
	signal_set_blocked(mask);
	/* Until a signal comes: a handler's, since nothing else is sent. */
	while (sleep_ns_interruptible(UINT64_MAX / 4, NULL) == 0)
		;
	return -EINTR;
}

static void alarm_fired(struct timer *t)
{
	struct signals *s = container_of(t, struct signals, alarm);
	struct process *proc = container_of(s, struct process, signals);
	struct sig_info info = { .signo = SIGALRM };
	signal_send(proc, &info);
	uint64_t flags = spin_lock_irqsave(&s->lock);
	s->alarm_armed = s->alarm_interval_ns != 0;
	if (s->alarm_armed)
		timer_start(t, t->expires + s->alarm_interval_ns);
	spin_unlock_irqrestore(&s->lock, flags);
}

long signal_alarm(uint64_t value_ns, uint64_t interval_ns, uint64_t *old_value_ns, uint64_t *old_interval_ns)
{
	struct signals *s = &sched_current()->process->signals;
	timer_cancel(&s->alarm);          /* first: its callback may be rearming it */
	uint64_t now = clock_ns(), flags = spin_lock_irqsave(&s->lock);
	*old_value_ns = s->alarm.expires > now && s->alarm_armed ? s->alarm.expires - now : 0;
	*old_interval_ns = s->alarm_interval_ns;
	s->alarm_interval_ns = interval_ns;
	s->alarm_armed = value_ns != 0;
	if (value_ns)
		timer_start(&s->alarm, now + value_ns);
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}
