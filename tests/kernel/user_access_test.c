/* ktest=user: the tests of arch/x86_64/user.c, through its public interface. */
#include "arch/x86_64/user.h"
#include "arch/x86_64/cpu_area.h"
#include "kernel/errno.h"
#include "kernel/debug/ktest.h"

KTEST(user, sysret_only_when_it_cannot_fault)
{
	struct user_regs r = { .rip = 0x401000, .cs = USER_CS, .ss = USER_DS, .rflags = RFLAGS_IF | 2 };
	KEXPECT(t, user_return_uses_sysret(&r));
	r.rip = USER_TOP - 1;                        /* the last user byte: still fine */
	KEXPECT(t, user_return_uses_sysret(&r));
	r.rip = USER_TOP;                            /* after `syscall` in the last two bytes */
	KEXPECT(t, !user_return_uses_sysret(&r));
	r.rip = 0x0000900000000000ULL;               /* deep in the non-canonical hole */
	KEXPECT(t, !user_return_uses_sysret(&r));
	r.rip = 0xffffffff80100000ULL;               /* canonical, but the kernel's */
	KEXPECT(t, !user_return_uses_sysret(&r));
	r.rip = 0x401000;
	r.rflags |= RFLAGS_TF;                       /* single-stepping: only iretq traps at the right place */
	KEXPECT(t, !user_return_uses_sysret(&r));
	r.rflags = RFLAGS_IF | 2;
	r.cs = KERNEL_CS;
	KEXPECT(t, !user_return_uses_sysret(&r));
}

KTEST(user, ranges_stay_below_user_top)
{
	KEXPECT(t, user_range_ok(0x400000, 4096));
	KEXPECT(t, user_range_ok(USER_TOP - 8, 8));
	KEXPECT(t, !user_range_ok(USER_TOP - 8, 9));
	KEXPECT(t, !user_range_ok(0, 8));                       /* NULL */
	KEXPECT(t, !user_range_ok(0x400000, (size_t)-1));       /* wraps around */
	KEXPECT(t, !user_range_ok(0xffffffff80100000ULL, 8));   /* the kernel image */
}

/* Kernel pointers are refused before any access; a hole in user space
 * faults and is caught. Interrupts off: the fault record is this CPU's. */
KTEST(user, copies_refuse_kernel_and_unmapped_memory)
{
	uint64_t value = 0x5eed, kernel_word = 0;
	KEXPECT_EQ(t, copy_from_user(&value, &kernel_word, sizeof(value)), -EFAULT);
	KEXPECT_EQ(t, copy_to_user(&kernel_word, &value, sizeof(value)), -EFAULT);
	uint64_t flags = irq_save();
	uint64_t before = this_arch_cpu()->last_fault.count;
	int err = copy_from_user(&value, (const void *)0x7ff000000000ULL, sizeof(value));
	uint64_t after = this_arch_cpu()->last_fault.count;
	irq_restore(flags);
	KEXPECT_EQ(t, err, -EFAULT);
	KEXPECT_EQ(t, after, before + 1);
	KEXPECT_EQ(t, value, 0x5eed);
	KEXPECT_EQ(t, copy_from_user(&value, (const void *)0x7ff000000000ULL, 0), 0);
}
