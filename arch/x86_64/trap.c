/*
 * Where every interrupt and exception arrives (from isr.asm). Interrupts go
 * to their registered handler. A page fault on a user address may be the
 * kernel's to resolve (copy-on-write: page_fault_resolved). Any other exception
 * in ring 3 is the program's: the kernel ends it (user_fault). One in the
 * kernel is either expected (its RIP is in the exception table: resume at
 * the fixup) or fatal: panic with the details.
 */
#include <stddef.h>
#include "lib/string.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/cpu_area.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/user.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

static irq_handler_fn irq_handlers[256];

void irq_register(int vector, irq_handler_fn handler)
{
	irq_handlers[vector] = handler;
}

const char *exception_name(uint64_t vector)
{
	static const char *const names[32] = {
		"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range exceeded",
		"invalid opcode", "device not available", "double fault", "coprocessor segment overrun",
		"invalid TSS", "segment not present", "stack-segment fault", "general protection fault",
		"page fault", "reserved (15)", "x87 floating-point error", "alignment check", "machine check",
		"SIMD floating-point error", "virtualization exception", "control protection",
	};
	if (vector < 32 && names[vector])
		return names[vector];
	return vector < 32 ? "reserved exception" : "interrupt";
}

struct extable_entry { uint64_t fault_rip, fixup_rip; };
extern const struct extable_entry __start_extable[], __stop_extable[];

static const struct extable_entry *extable_find(uint64_t rip)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++)
		if (e->fault_rip == rip)
			return e;
	return NULL;
}

static bool fixup_exception(struct trap_frame *f)
{
	const struct extable_entry *e = extable_find(f->rip);
	if (!e)
		return false;
	struct fault_record *r = &this_arch_cpu()->last_fault;
	r->vector = f->vector;
	r->error_code = f->error_code;
	r->rip = f->rip;
	r->cr2 = f->vector == VEC_PAGE_FAULT ? read_cr2() : 0;
	r->count++;
	f->rip = e->fixup_rip;
	return true;
}

static void __attribute__((noreturn)) fatal_exception(struct trap_frame *f)
{
	uint64_t cr2 = read_cr2();
	const char *owner;

	/* A push into a stack's guard page faults, and delivering that page fault
	 * faults again: a double fault, on its own IST stack, with CR2 in the guard. */
	if ((f->vector == VEC_PAGE_FAULT || f->vector == VEC_DOUBLE_FAULT) && (owner = stack_guard_owner(cr2)))
		panic_frame(f, "stack overflow in %s (guard page hit at 0x%llx)", owner, (unsigned long long)cr2);

	if (f->vector == VEC_PAGE_FAULT)
		panic_frame(f, "page fault at 0x%llx: %s %s, %s mode", (unsigned long long)cr2,
			    f->error_code & 1 ? "protection violation on" : "no page for",
			    f->error_code & 16 ? "instruction fetch" : f->error_code & 2 ? "write" : "read",
			    f->error_code & 4 ? "user" : "kernel");

	panic_frame(f, "%s (vector %llu, error code 0x%llx)", exception_name(f->vector),
		    (unsigned long long)f->vector, (unsigned long long)f->error_code);
}

extern const char iretq_to_user[];    /* isr.asm */


/* The kernel may resolve a page fault (copy-on-write), taking a lock that
 * other CPUs hold while they wait for this one to answer an IPI: so with
 * interrupts on, if the faulting code had them on (ring 3 always does).
 * Only ring 3 and the kernel's user copies (the exception table) touch
 * user memory: any other fault in the kernel is a bug, to be reported. */
static bool resolve_page_fault(const struct trap_frame *f, uint64_t addr)
{
	if (!(f->cs & 3) && !extable_find(f->rip))
		return false;
	bool irqs_were_on = f->rflags & RFLAGS_IF;
	if (irqs_were_on)
		irq_enable();
	bool resolved = page_fault_resolved(addr, f->error_code);
	if (irqs_were_on)
		irq_disable();
	return resolved;
}

/* The iretq back to ring 3 faulted, in ring 0: the frame it was loading was
 * bad (a non-canonical rip, which the system call exit leaves to iretq).
 * That is the program's fault: make f the program's state, the registers
 * isr.asm saved and the iretq frame, as if it had faulted in ring 3. */
static void blame_program_for_iretq(struct trap_frame *f)
{
	memcpy(&f->rip, (const void *)f->rsp, 5 * sizeof(uint64_t));   /* rip, cs, rflags, rsp, ss */
}

static void handle_exception(struct trap_frame *f)
{
	if (f->vector == VEC_NMI) {
		if (__atomic_load_n(&panic_cpu, __ATOMIC_ACQUIRE) >= 0)
			panic_nmi_stop(f);  /* the panicking CPU stops the others with an NMI */
		pr_warn("NMI received (no reason known): ignored");
		return;
	}
	if (f->vector == VEC_DEBUG && !(f->cs & 3) && f->rip == (uint64_t)syscall_entry)
		return;   /* a program's single step carried into `syscall` (isr.asm): its SIGTRAP comes after the call */
	if (f->rip == (uint64_t)iretq_to_user)
		blame_program_for_iretq(f);
	/* Read first: a fault while it is resolved (it may sleep) changes CR2. */
	uint64_t fault_addr = f->vector == VEC_PAGE_FAULT ? read_cr2() : f->rip;
	if (f->vector == VEC_PAGE_FAULT && resolve_page_fault(f, fault_addr))
		return;
	/* A double fault or machine check is the machine's trouble, whoever ran. */
	if ((f->cs & 3) && f->vector != VEC_DOUBLE_FAULT && f->vector != VEC_MACHINE_CHECK) {
		user_fault(exception_name(f->vector), fault_addr, f);
		return;
	}
	if (fixup_exception(f))
		return;
	fatal_exception(f);
}

static void handle_interrupt(struct trap_frame *f)
{
	irq_enter(f->cs & 3);            /* every interrupt, spurious ones too */
	/* Spurious: from the masked 8259, or the LAPIC's spurious vector; neither takes an EOI. */
	bool spurious = (f->vector >= VEC_LEGACY_PIC && f->vector < VEC_LEGACY_PIC + 16) || f->vector == VEC_SPURIOUS;
	if (!spurious) {
		irq_handler_fn handler = irq_handlers[f->vector];
		if (handler)
			handler(f);
		else
			pr_warn("interrupt on unexpected vector 0x%llx: ignored", (unsigned long long)f->vector);
		lapic_eoi();
	}
	irq_exit(f->rflags & RFLAGS_IF);
}

void trap_dispatch(struct trap_frame *f)
{
	if (f->vector < 32)
		handle_exception(f);
	else
		handle_interrupt(f);
	if ((f->cs & 3) && f->vector != VEC_NMI)    /* an NMI may come at any point: it acts on nothing */
		exit_to_user((struct user_regs *)f);
}
