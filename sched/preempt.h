/*
 * Preemption control. A task may be switched away from by an interrupt only
 * while its preempt_count is 0; holding a spinlock raises it, so the holder
 * keeps the CPU until it lets go.
 */
#pragma once
#include "sched/task.h"
#include "sched/platform.h"

void preempt_schedule(void);          /* sched/core.c: a deferred reschedule is due now */

static inline void preempt_disable(void)
{
	struct task *p = sched_current();
	if (p)
		p->preempt_count++;
	__asm__ volatile("" : : : "memory");
}

/* No reschedule here: for the scheduler itself, which is about to switch anyway. */
static inline void preempt_enable_no_resched(void)
{
	__asm__ volatile("" : : : "memory");
	struct task *p = sched_current();
	if (p)
		p->preempt_count--;
}

/* A reschedule asked for while we could not switch (preemption or interrupts
 * were off) is acted on as soon as we can: call this whenever either comes
 * back on, or the switch waits for the next interrupt, up to a tick. */
static inline void preempt_check_resched(void)
{
	struct task *p = sched_current();
	if (p && p->preempt_count == 0 && task_need_resched(p))
		preempt_schedule();
}

/* Interrupts back as they were, then act on a reschedule asked for meanwhile. */
static inline void sched_irq_restore_resched(uint64_t flags)
{
	sched_irq_restore(flags);
	preempt_check_resched();
}

static inline void preempt_enable(void)
{
	preempt_enable_no_resched();
	preempt_check_resched();
}
