/* The kernel's side of every interrupt: arch/x86_64/trap.c calls these
 * around the handler (arch/x86_64/hooks.h). */
#include "arch/x86_64/hooks.h"
#include "kernel/time/tick.h"
#include "kernel/percpu.h"
#include "sched/api.h"

/* Whatever woke an idle CPU, its tick runs again, before the handler can
 * make a task runnable here (nohz: kernel/time/tick.c). */
void irq_enter(bool from_user)
{
	this_cpu()->in_irq = true;
	this_cpu()->irq_from_user = from_user;
	tick_restart();
}

/* Full preemption: on the way back to code that could have been
 * interrupted, switch tasks if the scheduler asked to. */
void irq_exit(bool interrupted_irqs_on)
{
	this_cpu()->irq_from_user = false;
	this_cpu()->in_irq = false;
	if (interrupted_irqs_on)
		preempt_schedule_irq();
}
