/*
 * The kernel, as the x86 code sees it: the only functions it calls upward,
 * each defined by the kernel. Apart from these and the kernel's service
 * headers (printk, panic, params, ktest, spinlock, errno), nothing under
 * arch/ knows what runs above it.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An interrupt has arrived, from ring 3 or not; its handler has not run
 * yet (kernel/entry/irq.c). */
void irq_enter(bool from_user);
/* An interrupt has been handled and is about to return; interrupted_irqs_on:
 * the code it interrupted could be interrupted, so may be switched away from. */
void irq_exit(bool interrupted_irqs_on);

/* A secondary CPU is up, with its GS base, GDT, IDT and LAPIC loaded: the
 * kernel's part of its start-up, then its idle loop (kernel/entry/main.c). */
void kmain_secondary(int cpu) __attribute__((noreturn));

/* Device registers (or firmware tables) at phys, mapped uncached for good (kernel/mm/vmm.c). */
void *ioremap(uint64_t phys, size_t size);
/* The owner of the kernel stack whose guard page holds addr, or NULL: a
 * fault there is that stack's overflow (kernel/mm/vmm.c). */
const char *stack_guard_owner(uint64_t addr);

struct user_regs;
struct trap_frame;
/* A system call from ring 3 (syscall.asm), interrupts on: regs->rax is its
 * number, rdi, rsi, rdx, r10, r8, r9 its arguments, and what the program
 * gets back in it; returns with interrupts off, true if sysretq may take
 * the program back (user_return_uses_sysret()), else iretq (kernel/entry/syscall.c). */
bool syscall_dispatch(struct user_regs *regs);
/* A page fault at addr with the CPU's error code, in ring 3 or in the kernel
 * copying to or from user memory, interrupts on if the faulting code had
 * them on: true if the kernel made the access possible (a write to a
 * copy-on-write page), and the instruction is retried (kernel/mm/mm.c). */
bool page_fault_resolved(uint64_t addr, uint64_t error_code);
/* The running task is about to return to ring 3, from a system call or an
 * interrupt, interrupts off: the last moment to act on what concerns it (a
 * fatal signal); may end it (kernel/task/process_fault.c). */
void exit_to_user(struct user_regs *regs);
/* Code in ring 3 raised exception `what` (f->vector): addr is the page fault's
 * address, else f->rip. Either the program's signal handler runs next (on the
 * way back to ring 3), or the program ends here (kernel/task/process_fault.c). */
void user_fault(const char *what, uint64_t addr, struct trap_frame *f);
