/*
 * Signals: sending, blocking and acting on them (kernel/task/signal/signal.h). A
 * sender sets a pending bit under the receiver's signal lock and, if the
 * signal is not blocked, marks the thread (sigpending) and wakes it: an
 * interruptible sleep (sched/wait.h) ends with -EINTR or -ERESTARTSYS.
 * The receiver acts on its way back to ring 3 (exit_to_user, after every
 * system call and interrupt): the default action, or a handler entered
 * through a frame on its stack (kernel/task/signal/signal_frame.c).
 */
#include "kernel/task/signal/signal.h"
#include "kernel/task/signal/signal_frame.h"
#include "kernel/task/process.h"
#include "kernel/task/thread.h"
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
	wait_queue_init(&s->resume, "stopped");
}

/* Linux's fork: the actions are inherited; pending signals and the alarm
 * are not. */
void signals_fork(struct signals *child, const struct signals *parent)
{
	signals_init(child);
	memcpy(child->action, parent->action, sizeof(child->action));
}

void signals_thread_init(struct thread *t, const struct thread *creator, bool fork)
{
	t->blocked = creator ? creator->blocked : 0;
	if (creator && fork)
		t->altstack = creator->altstack;
	else if (creator)
		t->altstack = (struct user_stack){ .flags = SS_DISABLE };   /* a new thread's, as Linux's */
}

/* exec: a handler's address means nothing in the new program. */
void signals_exec(struct signals *s, struct thread *t)
{
	uint64_t flags = spin_lock_irqsave(&s->lock);
	for (int i = 0; i < NSIG; i++)
		if (s->action[i].handler != SIG_IGN)
			s->action[i] = (struct k_sigaction){ .handler = SIG_DFL };
	t->altstack = (struct user_stack){ .flags = 0 };
	spin_unlock_irqrestore(&s->lock, flags);
}

void signals_exit(struct signals *s)
{
	uint64_t flags = spin_lock_irqsave(&s->lock);
	s->alarm_armed = false;
	s->alarm_interval_ns = 0;
	spin_unlock_irqrestore(&s->lock, flags);
	timer_cancel(&s->alarm);          /* also waits for its callback, which uses the process */
}

/* Linux's signal(7): the default action of each signal. */
static bool ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT ||
	       sig > SIGSYS;              /* real-time signals end a process, but need handlers to be of use */
}

bool signal_stops_by_default(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

bool signal_kills_by_default(int sig)
{
	return !ignored_by_default(sig) && !signal_stops_by_default(sig);
}

#define STOP_SIGNALS (sigmask_of(SIGSTOP) | sigmask_of(SIGTSTP) | sigmask_of(SIGTTIN) | sigmask_of(SIGTTOU))

static bool wanted_locked(const struct signals *s, int sig)
{
	uint64_t handler = s->action[sig - 1].handler;
	if (handler == SIG_IGN)
		return false;
	return handler != SIG_DFL || signal_kills_by_default(sig) || signal_stops_by_default(sig);
}

bool signal_wanted(struct process *proc, int sig)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool wanted = wanted_locked(&proc->signals, sig);
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return wanted;
}

/* Under the lock: what thread t could take now. */
static sigset_t deliverable(const struct signals *s, const struct thread *t)
{
	assert_held(&s->lock);
	return (s->shared.pending | t->sent.pending) & ~t->blocked;
}

/* Under the lock: t has a signal to take. Mark it, and make it look: wake
 * it from an interruptible sleep, or interrupt it if it runs on another
 * CPU (it takes the signal on its way back to ring 3). */
static void notify_thread(struct signals *s, struct thread *t)
{
	assert_held(&s->lock);
	__atomic_store_n(&t->task->sigpending, true, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against the sleeper: sched/wait.h */
	if (!wake_up_process(t->task))
		sched_kick(t->task);
}

/* Under the lock, by the thread itself: is a signal it does not block
 * pending? Only the thread clears its mark: a sender only ever sets it. */
static void recalc_sigpending(struct task *me, const struct signals *s)
{
	assert_held(&s->lock);
	__atomic_store_n(&me->sigpending, deliverable(s, me->thread) || __atomic_load_n(&s->stopped, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
}

/* Under the lock: the signals in set are pending nowhere in proc any more. */
static void drop_everywhere(struct process *proc, sigset_t set)
{
	assert_held(&proc->signals.lock);
	proc->signals.shared.pending &= ~set;
	struct list_node *n;
	list_for_each(n, &proc->threads)
		list_entry(n, struct thread, node)->sent.pending &= ~set;
}

/* Under the lock: queue info on q, unless it is ignored; true if queued. */
static bool queue_signal(struct signals *s, struct sigqueue *q, const struct sig_info *info)
{
	assert_held(&s->lock);
	int sig = info->signo;
	if (signal_stops_by_default(sig))
		drop_everywhere(container_of(s, struct process, signals), sigmask_of(SIGCONT));   /* POSIX */
	if (sig != SIGKILL && !wanted_locked(s, sig))
		return false;
	if (!(q->pending & sigmask_of(sig)))
		q->info[sig - 1] = *info;     /* one of each waits: the first says who */
	q->pending |= sigmask_of(sig);
	return true;
}

/* Under the lock: signal_send(). */
static void send_locked(struct process *proc, const struct sig_info *info)
{
	struct signals *s = &proc->signals;
	assert_held(&s->lock);
	if (queue_signal(s, &s->shared, info)) {
		/* The first thread that does not block it (Linux prefers the
		 * main thread too). If all do, it waits for one to unblock it. */
		struct list_node *n;
		list_for_each(n, &proc->threads) {
			struct thread *t = list_entry(n, struct thread, node);
			if (!(t->blocked & sigmask_of(info->signo))) {
				notify_thread(s, t);
				break;
			}
		}
	}
}

void signal_send(struct process *proc, const struct sig_info *info)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	send_locked(proc, info);
	spin_unlock_irqrestore(&proc->signals.lock, flags);
}

void signal_send_thread_locked(struct process *proc, struct thread *t, const struct sig_info *info)
{
	struct signals *s = &proc->signals;
	assert_held(&s->lock);
	if (queue_signal(s, &t->sent, info) && !(t->blocked & sigmask_of(info->signo)))
		notify_thread(s, t);
}

bool signal_stop(struct process *proc, int sig)
{
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	bool stops = !s->stopped && !proc->group_exiting;
	if (stops) {
		__atomic_store_n(&s->stopped, true, __ATOMIC_RELAXED);   /* read without the lock */
		s->wait_report = (sig << 8) | 0x7f;      /* Linux's "stopped by sig" */
		struct list_node *n;
		list_for_each(n, &proc->threads)
			notify_thread(s, list_entry(n, struct thread, node));   /* all come to a stop */
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return stops;
}

bool signal_continue(struct process *proc)
{
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	drop_everywhere(proc, STOP_SIGNALS);
	bool was_stopped = s->stopped;
	if (was_stopped) {
		__atomic_store_n(&s->stopped, false, __ATOMIC_RELAXED);
		s->wait_report = 0xffff;          /* Linux's "continued" */
		wake_up_all(&s->resume);
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return was_stopped;
}

/* While the process is stopped, its threads sleep; SIGKILL still ends them. */
static void wait_while_stopped(struct thread *t, struct signals *s)
{
	for (;;) {
		uint64_t flags = wait_prepare(&s->resume);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against SIGKILL's sender: sched/wait.h */
		sigset_t pending = __atomic_load_n(&s->shared.pending, __ATOMIC_RELAXED) |
				   __atomic_load_n(&t->sent.pending, __ATOMIC_RELAXED);
		if (!__atomic_load_n(&s->stopped, __ATOMIC_RELAXED) || (pending & sigmask_of(SIGKILL))) {
			wait_cancel(&s->resume, flags);
			return;
		}
		wait_sleep(&s->resume, flags);
	}
}

sigset_t signal_pending_set(void)
{
	struct task *me = current();
	struct signals *s = &me->process->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	sigset_t pending = s->shared.pending | me->thread->sent.pending;
	spin_unlock_irqrestore(&s->lock, flags);
	return pending;
}

void signal_set_blocked(sigset_t blocked)
{
	struct task *me = current();
	struct signals *s = &me->process->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	me->thread->blocked = blocked & ~UNBLOCKABLE;
	recalc_sigpending(me, s);         /* a signal it has just unblocked, or blocked */
	spin_unlock_irqrestore(&s->lock, flags);
}

long signal_action(int sig, const struct k_sigaction *act, struct k_sigaction *old)
{
	if (sig < 1 || sig > NSIG || (act && (sigmask_of(sig) & UNBLOCKABLE)))
		return -EINVAL;
	struct process *proc = current()->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	if (old)
		*old = s->action[sig - 1];
	if (act) {
		s->action[sig - 1] = *act;
		s->action[sig - 1].mask &= ~UNBLOCKABLE;
		if (!wanted_locked(s, sig))
			drop_everywhere(proc, sigmask_of(sig));   /* POSIX: ignoring a signal drops it */
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}

void signal_restart_syscall(struct user_regs *regs, uint64_t nr)
{
	regs->rax = nr;
	regs->rip -= 2;                       /* back onto the 2-byte `syscall` */
	current()->thread->restarting = true;
}

/*
 * The alarm (ITIMER_REAL). It sends SIGALRM, and a periodic one starts
 * again only when a thread takes that signal from the process's queue,
 * its expiry forwarded past now (timer_forward), as Linux does: a program
 * that blocks SIGALRM, or is slow to take it, has one signal pending and a
 * timer that waits, not a timer firing over and over. Under the lock,
 * alarm_armed says the timer is queued, or has fired and its function has
 * not yet had the lock: a function that finds it queued again, or not
 * armed, was overtaken by setitimer() and does nothing.
 */
static void alarm_fired(struct timer *t)
{
	struct signals *s = container_of(t, struct signals, alarm);
	struct process *proc = container_of(s, struct process, signals);
	struct sig_info info = { .signo = SIGALRM };
	uint64_t flags = spin_lock_irqsave(&s->lock);
	if (s->alarm_armed && __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE) < 0) {
		s->alarm_armed = false;
		send_locked(proc, &info);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/* Under the lock: SIGALRM is taken from the process's queue. */
static void alarm_taken(struct signals *s)
{
	assert_held(&s->lock);
	if (s->alarm_armed || !s->alarm_interval_ns)
		return;
	uint64_t expires = s->alarm.expires;
	timer_forward(&expires, clock_ns(), s->alarm_interval_ns);
	s->alarm_armed = true;
	timer_start(&s->alarm, expires);
}

/* Under the lock: the time to the alarm, as getitimer() says it: 1 µs if
 * it is due but its function has not run yet (Linux's rule), 0 if off. */
static uint64_t alarm_left_ns(const struct signals *s)
{
	assert_held(&s->lock);
	uint64_t now = clock_ns();
	if (!s->alarm_armed)
		return 0;
	return s->alarm.expires > now ? s->alarm.expires - now : NS_PER_US;
}

/* Under the lock: take the lowest signal pending for thread t that it
 * does not block, its own before its process's (0 if none). */
static int take_signal(struct signals *s, struct thread *t, struct sig_info *info, struct k_sigaction *act)
{
	assert_held(&s->lock);
	sigset_t ready = deliverable(s, t);
	if (!ready)
		return 0;
	int sig = __builtin_ctzll(ready) + 1;
	struct sigqueue *q = t->sent.pending & sigmask_of(sig) ? &t->sent : &s->shared;
	q->pending &= ~sigmask_of(sig);
	if (sig == SIGALRM && q == &s->shared)
		alarm_taken(s);
	*info = q->info[sig - 1];
	*act = s->action[sig - 1];
	if (act->handler > SIG_IGN && (act->flags & SA_RESETHAND))
		s->action[sig - 1] = (struct k_sigaction){ .handler = SIG_DFL };
	return sig;
}

bool signal_on_altstack(const struct thread *t, uint64_t sp)
{
	if (t->altstack.flags & SS_AUTODISARM)
		return false;
	return t->altstack.size && sp > t->altstack.sp && sp - t->altstack.sp <= t->altstack.size;
}

struct user_stack signal_altstack(const struct thread *t, uint64_t sp)
{
	struct user_stack told = t->altstack;
	told.flags = (!t->altstack.size ? SS_DISABLE : signal_on_altstack(t, sp) ? SS_ONSTACK : 0) |
		     (t->altstack.flags & SS_AUTODISARM);
	return told;
}

long signal_set_altstack(struct thread *t, const struct user_stack *ss, uint64_t sp)
{
	if (signal_on_altstack(t, sp))
		return -EPERM;
	uint32_t mode = ss->flags & ~SS_AUTODISARM;
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	struct user_stack set = *ss;          /* its flags as given: a handler's frame shows them */
	set.pad = 0;
	if (mode == SS_DISABLE)
		set.sp = set.size = 0;
	else if (set.size < MINSIGSTKSZ)
		return -ENOMEM;
	t->altstack = set;
	return 0;
}

/* Enter act's handler for sig: 0, or -EFAULT if the frame could not be written. */
static int enter_handler(struct user_regs *regs, struct thread *t, int sig, const struct sig_info *info,
			 const struct k_sigaction *act)
{
	if (t->restarting && !(act->flags & SA_RESTART)) {
		regs->rip += 2;                   /* the interrupted call fails after all */
		regs->rax = (uint64_t)-EINTR;
	}
	t->restarting = false;
	sigset_t restore = t->restore_blocked ? t->saved_blocked : t->blocked;
	t->restore_blocked = false;
	uint64_t top = regs->rsp;
	if ((act->flags & SA_ONSTACK) && t->altstack.size && !signal_on_altstack(t, regs->rsp))
		top = t->altstack.sp + t->altstack.size;
	struct signal_frame_args a = {
		.handler = act->handler, .restorer = act->restorer, .stack_top = top, .info = info,
		.blocked = restore, .altstack = t->altstack,
	};
	int err = signal_frame_push(regs, &a);
	if (!err) {
		sigset_t more = act->mask | (act->flags & SA_NODEFER ? 0 : sigmask_of(sig));
		signal_set_blocked(t->blocked | more);
		if (t->altstack.flags & SS_AUTODISARM)   /* the handler's alone: back at its return */
			t->altstack = (struct user_stack){ .flags = SS_DISABLE };
	}
	return err;
}

void signal_deliver(struct user_regs *regs)
{
	assert_irqs_off();
	struct task *me = current();
	struct thread *t = me->thread;
	struct signals *s = &me->process->signals;
	for (;;) {
		if (__atomic_load_n(&s->stopped, __ATOMIC_RELAXED)) {
			irq_enable();
			wait_while_stopped(t, s);
			irq_disable();
		}
		struct sig_info info;
		struct k_sigaction act;
		uint64_t flags = spin_lock_irqsave(&s->lock);
		int sig = take_signal(s, t, &info, &act);
		recalc_sigpending(me, s);
		spin_unlock_irqrestore(&s->lock, flags);
		if (!sig)
			break;
		if (act.handler == SIG_DFL && signal_stops_by_default(sig)) {
			irq_enable();             /* telling the parent takes the process tree's lock */
			process_stop(sig);
			irq_disable();
			continue;                 /* to a stop, at the top */
		}
		if (act.handler == SIG_IGN || (act.handler == SIG_DFL && !signal_kills_by_default(sig)))
			continue;
		irq_enable();                     /* ending sleeps; the frame may fault in pages */
		if (act.handler == SIG_DFL || enter_handler(regs, t, sig, &info, &act) < 0)
			process_exit(wait_status_killed(act.handler == SIG_DFL ? sig : SIGSEGV));
		irq_disable();
		return;                           /* one handler at a time: the rest at the next return */
	}
	t->restarting = false;                /* no handler came: the call runs again */
	if (t->restore_blocked) {
		t->restore_blocked = false;
		signal_set_blocked(t->saved_blocked);
	}
}

long signal_return(struct user_regs *regs)
{
	sigset_t blocked;
	struct user_stack altstack;
	uint64_t handler_sp = regs->rsp;
	if (signal_frame_pop(regs, &blocked, &altstack) < 0) {
		/* A frame the kernel cannot take back: SIGSEGV, forced as a
		 * fault's is (Linux's too): to a handler that does not block
		 * it, else the end, even if the program blocks or ignores it. */
		if (!process_fault_signal(SIGSEGV, regs->rsp))
			process_exit(wait_status_killed(SIGSEGV));
		return (long)regs->rax;
	}
	/* The alternate stack back as the frame says (SS_AUTODISARM's return),
	 * as if the handler called sigaltstack() last: refused if it runs on
	 * one (Linux's rule), and an answer nobody hears. */
	(void)signal_set_altstack(current()->thread, &altstack, handler_sp);
	signal_set_blocked(blocked);
	return (long)regs->rax;           /* what the interrupted code had in rax, untouched */
}

long signal_suspend(sigset_t mask)
{
	struct thread *t = current()->thread;
	t->saved_blocked = t->blocked;
	t->restore_blocked = true;
	signal_set_blocked(mask);
	/* Until a signal comes: a handler's, since nothing else is sent. */
	while (sleep_ns_interruptible(UINT64_MAX / 4, NULL) == 0)
		;
	return -EINTR;
}

long signal_alarm(uint64_t value_ns, uint64_t interval_ns, uint64_t *old_value_ns, uint64_t *old_interval_ns)
{
	struct signals *s = &current()->process->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	*old_value_ns = alarm_left_ns(s);
	*old_interval_ns = s->alarm_interval_ns;
	timer_dequeue(&s->alarm);         /* a function running now finds it queued again, or off */
	s->alarm_armed = value_ns != 0;
	s->alarm_interval_ns = value_ns ? interval_ns : 0;   /* Linux keeps no interval when off */
	if (value_ns)
		timer_start(&s->alarm, clock_ns() + value_ns);
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}

void signal_alarm_get(uint64_t *value_ns, uint64_t *interval_ns)
{
	struct signals *s = &current()->process->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	*value_ns = alarm_left_ns(s);
	*interval_ns = s->alarm_interval_ns;
	spin_unlock_irqrestore(&s->lock, flags);
}
