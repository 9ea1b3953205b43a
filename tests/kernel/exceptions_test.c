/* ktest=exceptions: the tests of arch/x86_64/trap.c, through its public interface. */
#include "arch/x86_64/cpu_area.h"
#include "kernel/printk.h"
#include "kernel/debug/ktest.h"

/* Interrupts off: the record is this CPU's, and we must stay on it. */
KTEST(exceptions, page_fault_is_caught_and_reported)
{
	uint64_t flags = irq_save();
	uint64_t value = 0x1234, before = this_arch_cpu()->last_fault.count;
	int err = safe_read_u64((void *)0x10, &value);
	struct fault_record r_copy = this_arch_cpu()->last_fault, *r = &r_copy;
	irq_restore(flags);
	KEXPECT_EQ(t, err, -14);                        /* -EFAULT */
	KEXPECT_EQ(t, value, 0x1234);                   /* untouched */
	KEXPECT_EQ(t, r->count, before + 1);
	KEXPECT_EQ(t, r->vector, VEC_PAGE_FAULT);
	KEXPECT_EQ(t, r->cr2, 0x10);
	KEXPECT_EQ(t, r->error_code & 1, 0);            /* not present */
	pr_info("  # caught %s at rip 0x%llx, cr2 0x%llx", exception_name(r->vector), (unsigned long long)r->rip,
		(unsigned long long)r->cr2);
}

KTEST(exceptions, invalid_opcode_is_caught_and_reported)
{
	uint64_t flags = irq_save();
	uint64_t before = this_arch_cpu()->last_fault.count;
	int err = probe_invalid_opcode();
	struct fault_record r = this_arch_cpu()->last_fault;
	irq_restore(flags);
	KEXPECT_EQ(t, err, -14);
	KEXPECT_EQ(t, r.count, before + 1);
	KEXPECT_EQ(t, r.vector, 6);
}

KTEST(exceptions, mapped_read_does_not_fault)
{
	uint64_t value = 0, expected = 0x5eed5eed;
	uint64_t flags = irq_save();
	uint64_t before = this_arch_cpu()->last_fault.count;
	int err = safe_read_u64(&expected, &value);
	uint64_t after = this_arch_cpu()->last_fault.count;
	irq_restore(flags);
	KEXPECT_EQ(t, err, 0);
	KEXPECT_EQ(t, value, expected);
	KEXPECT_EQ(t, after, before);
}
