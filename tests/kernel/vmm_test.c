/* ktest=vmm: the tests of kernel/mm/vmm.c, through its public interface. */
#include "kernel/mm/vmm.h"
#include "kernel/mm/pmm.h"
#include "kernel/debug/ktest.h"
#include "sched/preempt.h"
#include "arch/x86_64/hooks.h"

KTEST(vmm, stack_has_guard_below)
{
	kstack_free(kstack_alloc("warm-up"));          /* page tables for the slot stay */
	kstack_trim();
	size_t before = pmm_free_pages();
	uint8_t *top = kstack_alloc("ktest");
	KASSERT(t, top != NULL);
	top[-1] = 1;                                   /* the stack itself is writable */
	top[-KSTACK_SIZE] = 2;
	KEXPECT(t, is_mapped((uint64_t)top - KSTACK_SIZE));
	KEXPECT(t, !is_mapped((uint64_t)top - KSTACK_SIZE - 8));
	KEXPECT(t, stack_guard_owner((uint64_t)top - KSTACK_SIZE - 8) != NULL);
	KEXPECT(t, stack_guard_owner((uint64_t)top - 8) == NULL);
	kstack_free(top);
	KEXPECT(t, is_mapped((uint64_t)top - 8));      /* cached for the next task */
	kstack_trim();
	KEXPECT(t, !is_mapped((uint64_t)top - 8));
	KEXPECT_EQ(t, pmm_free_pages(), before);
}

KTEST(vmm, freed_stack_is_reused_without_unmapping)
{
	preempt_disable();                             /* nothing on this CPU takes it meanwhile */
	void *a = kstack_alloc("ktest");
	KASSERT(t, a != NULL);
	size_t before = pmm_free_pages();
	kstack_free(a);
	void *b = kstack_alloc("ktest");
	preempt_enable();
	KEXPECT(t, a == b);
	KEXPECT_EQ(t, pmm_free_pages(), before);
	kstack_free(b);
}

KTEST(vmm, null_page_is_unmapped)
{
	KEXPECT(t, !is_mapped(0));
	KEXPECT(t, !is_mapped(TRAMPOLINE_BASE));      /* the identity map is gone */
	KEXPECT(t, is_mapped((uint64_t)phys_to_virt(TRAMPOLINE_BASE)));
}
