/*
 * Where ring 3 meets the process on the way in and out (the hooks of
 * arch/x86_64/hooks.h): an exception in ring 3 becomes the signal Linux
 * sends for it (the program's handler runs, or the fault ends it), and
 * before each return to ring 3 the pending signals are acted on.
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/thread.h"
#include "kernel/printk.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/trap.h"

void exit_to_user(struct user_regs *regs)
{
	struct task *me = current();
	if (task_signal_pending(me) || me->thread->restarting)
		signal_deliver(regs);
}

/* The signal Linux would kill the program with for this exception. */
static int fault_signal(uint64_t vector)
{
	switch (vector) {
	case 0: case 16: case 19:         /* divide error, x87 and SIMD floating point */
		return SIGFPE;
	case 6:                           /* invalid opcode */
		return SIGILL;
	case 1: case 3:                   /* debug, breakpoint */
		return SIGTRAP;
	case 17:                          /* alignment check */
		return SIGBUS;
	default:                          /* page faults, protection faults, ... */
		return SIGSEGV;
	}
}

bool process_fault_signal(int signal, uint64_t addr)
{
	struct task *me = current();
	struct process *proc = me->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	bool handled = s->action[signal - 1].handler > SIG_IGN && !(me->thread->blocked & sigmask_of(signal));
	if (handled) {
		struct sig_info info = { .signo = signal, .fault = true, .addr = addr };
		signal_send_thread_locked(proc, me->thread, &info);
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return handled;
}

/* The program's handler runs next, if it has one; else the fault ends it. */
void user_fault(const char *what, uint64_t addr, struct trap_frame *f)
{
	struct task *me = current();
	if (f->vector == VEC_PAGE_FAULT && me->thread->fault_out_of_memory) {
		/* The access was the program's right, but no page was left for
		 * it: the process is killed, as Linux's OOM killer kills (it
		 * picks the largest; here the one that asked is, under one
		 * program's exhaustion, that one), and no handler can run. */
		me->thread->fault_out_of_memory = false;
		pr_info("Out of memory: killed process %d (%s) at a page fault at %llx", me->process->pid, me->name,
		       (unsigned long long)addr);
		irq_enable();
		process_exit(wait_status_killed(SIGKILL));
	}
	int signal = fault_signal(f->vector);
	if (process_fault_signal(signal, addr))
		return;
	/* Linux's lines, so that tools that read them read ours. */
	if (f->vector == VEC_PAGE_FAULT)
		pr_info("%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx in %s[%d]", me->name, me->pid,
			(unsigned long long)addr, (unsigned long long)f->rip, (unsigned long long)f->rsp,
			(unsigned long long)f->error_code, me->name, me->pid);
	else
		pr_info("%s[%d]: trap %s ip %016llx sp %016llx error %llx in %s[%d]", me->name, me->pid, what,
			(unsigned long long)f->rip, (unsigned long long)f->rsp, (unsigned long long)f->error_code,
			me->name, me->pid);
	irq_enable();                     /* exceptions arrive with interrupts off; exiting sleeps */
	process_exit(wait_status_killed(signal));
}
