/* The first stack frame of a new task, matching sched_switch_to (switch.asm). */
#pragma once
#include <stdint.h>
#include "sched/task.h"

void task_entry_asm(void);

/* Six zeroed callee-saved registers, then the address the first switch
 * "returns" to. With a 16-byte aligned top, task_entry() gets the stack
 * alignment the ABI expects. */
static inline void arch_task_stack_init(struct task *p)
{
	uint64_t *sp = (uint64_t *)p->kstack_top;
	*--sp = (uint64_t)task_entry_asm;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	p->saved_rsp = (uint64_t)sp;
}
