/* The first stack frame of a new task, matching sched_switch_to (switch.asm). */
#pragma once
#include <stdint.h>

void task_entry_asm(void);

/* Six zeroed callee-saved registers, then the address the first switch
 * "returns" to. Returns the stack pointer to save for that switch. With a
 * 16-byte aligned top, task_entry() gets the stack alignment the ABI expects. */
static inline uint64_t arch_task_stack_init(void *stack_top)
{
	uint64_t *sp = stack_top;
	*--sp = (uint64_t)task_entry_asm;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	return (uint64_t)sp;
}
