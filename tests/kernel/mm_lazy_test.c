/* An address space destroyed while this CPU still holds it lazily: a
 * kernel task switched in after one of its threads (or a vfork() child
 * sharing it) keeps its tables loaded (kernel/mm/mm.c). fuzzlines once saw
 * "PANIC: mm_destroy: the address space is in use on this CPU" so. */
#include "kernel/debug/ktest.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vmm.h"
#include "sched/preempt.h"
#include "arch/x86_64/cpu.h"

KTEST(mm, destroyed_while_this_cpu_holds_it_lazily)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	preempt_disable();                /* the tables are this CPU's */
	mm_activate(mm);                  /* as a thread of mm running here... */
	mm_switch_to(NULL);               /* ...then a kernel task: lazily still mm's */
	uint64_t held = read_cr3();
	mm_destroy(mm);
	KEXPECT(t, read_cr3() != held);   /* it let go before the tables went */
	KEXPECT_EQ(t, read_cr3(), vmm_kernel_pml4_phys());
	preempt_enable();
}
