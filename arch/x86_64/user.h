/*
 * Ring 3: what the kernel needs from the x86 code to run programs. The
 * system call entry and exit and the first entry are in syscall.asm; how
 * they work, and why, is in docs/userspace.md.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"

/* User space is the lower half of the canonical addresses, minus its first
 * 64 KiB (Linux's default mmap_min_addr), so that a NULL pointer faults. */
#define USER_BASE 0x0000000000010000ULL
#define USER_TOP  0x0000800000000000ULL    /* the first non-canonical address */

/* A program's registers as it entered the kernel. Every entry from ring 3,
 * system call or interrupt, saves them at the top of the task's kernel stack
 * in this layout, which is struct trap_frame's (trap.h). */
struct user_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;           /* VEC_SYSCALL and 0 after a system call */
	uint64_t rip, cs, rflags, rsp, ss;
};

/* This CPU: the system call MSRs, SSE, and SMEP and SMAP if it has them. Every CPU, once. */
void arch_user_init_cpu(void);
/* The stack top the CPU and the system call entry use when the running task
 * enters from ring 3 (TSS.RSP0 and syscall.asm's slot): on every task switch. */
void arch_set_kernel_stack(uint64_t top);
/* Where `syscall` enters the kernel (syscall.asm). */
void syscall_entry(void);
/* Into ring 3 at rip with stack rsp, all other registers 0, interrupts on.
 * Abandons the kernel stack: the caller's frames are overwritten. */
void arch_enter_user(uint64_t rip, uint64_t rsp) __attribute__((noreturn));
/* Into ring 3 with the registers in regs (a forked child's first return);
 * only CS, SS and the flags a program may not set are not taken from it. */
void arch_resume_user(const struct user_regs *regs) __attribute__((noreturn));
/* The registers of the task whose kernel stack tops at kstack_top, as it
 * last entered the kernel from ring 3 (they are saved at the very top). */
static inline struct user_regs *arch_user_regs(void *kstack_top)
{
	return (struct user_regs *)kstack_top - 1;
}
/* Load the page tables at pml4_phys, unless CR3 holds them already. */
void arch_switch_address_space(uint64_t pml4_phys);
/* The FS base user code addresses its thread-local storage with. The base
 * must be a user address: a non-canonical one makes wrmsr fault. */
uint64_t arch_get_fs_base(void);
void arch_set_fs_base(uint64_t base);

/* Is [addr, addr + n) all user space? */
bool user_range_ok(uint64_t addr, size_t n);
/* Copy between the kernel and user space: 0, or -EFAULT if the user range is
 * not user space or is not mapped. The only way the kernel touches user
 * memory: with SMAP on, any other access faults. */
int copy_from_user(void *dst, const void *usrc, size_t n);
int copy_to_user(void *udst, const void *src, size_t n);

/* The kernel rewrote regs beyond rax (a signal handler's entry or return):
 * sysretq would lose rcx and r11, so the way back must be iretq. Marked in
 * the frame's error code, which a system call's frame otherwise has as 0. */
#define USER_REGS_REWRITTEN 1
static inline void user_regs_rewritten(struct user_regs *regs)
{
	regs->error_code = USER_REGS_REWRITTEN;
}
/*
 * May the system call exit return with sysretq, or must it use iretq?
 * sysretq is the fast way back, but it trusts rcx and r11 blindly. On
 * Intel CPUs a non-canonical rcx makes sysretq raise #GP while still in
 * ring 0, on the user's stack and with the user's GS: a user-chosen stack
 * for the kernel's fault handler. A system call can leave a non-canonical
 * rip (`syscall` in the last two bytes of user space returns to USER_TOP),
 * and so can a kernel that rewrites regs. So anything sysretq cannot
 * restore exactly goes back through iretq instead: a rip outside user
 * space (iretq faults in a way trap.c blames on the program), changed
 * selectors, TF or RF, which sysretq cannot give back as iretq does, and
 * registers the kernel rewrote (a signal's handler entered or returned
 * from). Inline: every system call asks (kernel/entry/syscall.c).
 */
static inline bool user_return_uses_sysret(const struct user_regs *regs)
{
	return regs->rip < USER_TOP && regs->cs == USER_CS && regs->ss == USER_DS &&
	       !(regs->rflags & (RFLAGS_TF | RFLAGS_RF)) && regs->error_code != USER_REGS_REWRITTEN;
}
extern uint64_t syscall_exits_by_iretq;   /* how often it had to (atomic) */
