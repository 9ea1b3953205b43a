/*
 * Ring 3, the C half (syscall.asm is the other): the system call MSRs,
 * SMEP and SMAP, the per-task stack and address space, the FS base, and
 * copying to and from user memory. docs/userspace.md explains the whole.
 */
#include <stddef.h>
#include "arch/x86_64/user.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/cpu_area.h"
#include "kernel/errno.h"
#include "kernel/debug/lockdep.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

#define EFER_SCE   (1ULL << 0)     /* the syscall and sysret instructions */
#define CR4_SMEP   (1ULL << 20)    /* ring 0 may not execute user pages */
#define CR4_SMAP   (1ULL << 21)    /* nor touch them, except between stac and clac */
#define CPUID7_EBX_SMEP (1u << 7)
#define CPUID7_EBX_SMAP (1u << 20)

/* What `syscall` clears in RFLAGS, as Linux: the kernel runs with
 * interrupts off until it is on its own stack, no single-stepping, string
 * instructions going up, SMAP in force (AC clear), and no stale nested-task
 * flag for its iretq; the arithmetic flags go too, so nothing leaks in. */
#define SYSCALL_CLEARED_FLAGS 0x257fd5ULL   /* ID AC RF NT IOPL OF DF IF TF SF ZF AF PF CF */

/* sysretq takes CS from STAR's base + 16 and SS from base + 8, RPL 3. */
_Static_assert(USER_CS == USER_DS + 8, "sysretq needs user data, then user code, in the GDT");
#define STAR_VALUE (((uint64_t)(USER_DS - 8) << 48) | ((uint64_t)KERNEL_CS << 32))

/* syscall.asm and trap_frame.inc know these offsets. */
_Static_assert(offsetof(struct arch_cpu, kernel_stack) == 8, "syscall.asm: KERNEL_STACK");
_Static_assert(offsetof(struct arch_cpu, user_rsp) == 16, "syscall.asm: USER_RSP");
_Static_assert(sizeof(struct user_regs) == sizeof(struct trap_frame) &&
	       offsetof(struct user_regs, rax) == offsetof(struct trap_frame, rax) &&
	       offsetof(struct user_regs, rip) == offsetof(struct trap_frame, rip),
	       "struct user_regs is laid out as struct trap_frame");

/* Set once by the boot CPU, before any other starts. smap_enabled is also
 * read by every kernel entry (CLEAR_AC in trap_frame.inc). */
bool smap_enabled;
static bool smep_enabled;

/* "on", or why not. */
static const char *feature_state(bool on, uint32_t max_leaf)
{
	return on ? "on" : max_leaf < 7 ? "off (no CPUID leaf 7)" : "off (the CPU lacks it)";
}

/* SMEP and SMAP, decided by the boot CPU; the others must match it. */
static void protect_user_pages(bool boot_cpu)
{
	uint32_t max_leaf = cpuid(0, 0).eax;
	uint32_t features = max_leaf >= 7 ? cpuid(7, 0).ebx : 0;
	bool has_smep = features & CPUID7_EBX_SMEP, has_smap = features & CPUID7_EBX_SMAP;
	if (boot_cpu) {
		smep_enabled = has_smep;
		smap_enabled = has_smap;
		pr_info("user: SMEP %s, SMAP %s", feature_state(has_smep, max_leaf), feature_state(has_smap, max_leaf));
	} else if ((smep_enabled && !has_smep) || (smap_enabled && !has_smap)) {
		panic("user: this CPU lacks SMEP or SMAP, which the boot CPU has");
	}
	write_cr4(read_cr4() | (smep_enabled ? CR4_SMEP : 0) | (smap_enabled ? CR4_SMAP : 0));
}

void arch_user_init_cpu(void)
{
	static bool boot_cpu_done;
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_STAR, STAR_VALUE);
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	wrmsr(MSR_SYSCALL_MASK, SYSCALL_CLEARED_FLAGS);
	protect_user_pages(!boot_cpu_done);
	fpu_enable();                     /* programs use SSE */
	boot_cpu_done = true;
}

void arch_set_kernel_stack(uint64_t top)
{
	struct arch_cpu *a = this_arch_cpu();
	a->tss.rsp[0] = top;
	a->kernel_stack = top;
}

void arch_switch_address_space(uint64_t pml4_phys)
{
	if (read_cr3() != pml4_phys)
		write_cr3(pml4_phys);
}

uint64_t arch_get_fs_base(void) { return rdmsr(MSR_FS_BASE); }
void arch_set_fs_base(uint64_t base) { wrmsr(MSR_FS_BASE, base); }

bool user_range_ok(uint64_t addr, size_t n)
{
	return addr >= USER_BASE && addr <= USER_TOP && n <= USER_TOP - addr;
}

/* extable.asm: memcpy that returns -EFAULT instead of faulting. */
int copy_or_fault(void *dst, const void *src, size_t n);

static int copy_user(void *dst, const void *src, size_t n, uint64_t user_addr, uint64_t ip)
{
	if (!user_range_ok(user_addr, n))
		return -EFAULT;
	if (lockdep_on)
		lockdep_might_fault(ip);     /* whether or not this one faults */
	if (smap_enabled)
		__asm__ volatile("stac" : : : "memory");
	int err = copy_or_fault(dst, src, n);
	if (smap_enabled)
		__asm__ volatile("clac" : : : "memory");
	return err;
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
	return copy_user(dst, usrc, n, (uint64_t)usrc, (uint64_t)__builtin_return_address(0));
}

int copy_to_user(void *udst, const void *src, size_t n)
{
	return copy_user(udst, src, n, (uint64_t)udst, (uint64_t)__builtin_return_address(0));
}

uint64_t syscall_exits_by_iretq;
