/*
 * panic(): the end of the line. Stop the other CPUs with an NMI, print the
 * reason, the registers and a symbolised backtrace, and then halt, or in test
 * mode end QEMU with the "panic" status so the test runner knows at once.
 */
#include <stdarg.h>
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/ksyms.h"
#include "kernel/power.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/time.h"
#include "lib/printf.h"

int panic_cpu = -1;

#define BACKTRACE_MAX_FRAMES 32

static void print_frame_line(int depth, uint64_t rip)
{
	uint64_t offset;
	const char *name = ksym_lookup(rip, &offset);
	if (name)
		pr_emerg("  #%-2d 0x%016llx %s+0x%llx", depth, (unsigned long long)rip, name,
		       (unsigned long long)offset);
	else
		pr_emerg("  #%-2d 0x%016llx ?", depth, (unsigned long long)rip);
}

/* Has the function at rip pushed its frame yet? Not if it trapped before its
 * prologue (push %rbp; mov %rsp,%rbp) ran, or has none: gcc gives small leaf
 * functions no frame. Then rbp is still the caller's, and the caller's return
 * address is on top of the stack instead. */
static bool frame_is_set_up(uint64_t rip)
{
	uint64_t offset;
	if (!ksym_lookup(rip, &offset))
		return true;
	static const uint8_t prologue[] = { 0x55, 0x48, 0x89, 0xe5 };
	const uint8_t *start = (const uint8_t *)(rip - offset);
	for (unsigned i = 0; i < sizeof(prologue); i++)
		if (start[i] != prologue[i])
			return false;
	return offset >= sizeof(prologue);
}

/* Follow the frame-pointer chain: each frame holds the caller's rbp, then the
 * return address. Every read goes through safe_read_u64, so a corrupt chain
 * ends the backtrace instead of faulting again. rip/rsp/rbp: where to start
 * (a trapped frame), or all 0 for the caller of backtrace_print. */
extern const char trap_return[];      /* isr.asm: where trap_dispatch() returns to */

/* The start of a chain: rip, and its caller if rip's function has no frame yet. */
static int print_start(int depth, uint64_t rip, uint64_t rsp)
{
	uint64_t ret;
	print_frame_line(depth++, rip);
	if (!frame_is_set_up(rip) && safe_read_u64((void *)rsp, &ret) == 0)
		print_frame_line(depth++, ret - 1);
	return depth;
}

void backtrace_print(uint64_t rip, uint64_t rsp, uint64_t rbp)
{
	if (rbp == 0)
		rbp = (uint64_t)__builtin_frame_address(0);
	pr_emerg("backtrace:");
	int depth = rip ? print_start(0, rip, rsp) : 0;
	while (rbp && depth < BACKTRACE_MAX_FRAMES) {
		uint64_t next_rbp, ret;
		if ((rbp & 7) || safe_read_u64((void *)rbp, &next_rbp) || safe_read_u64((void *)(rbp + 8), &ret))
			break;
		if (ret == 0)
			break;
		print_frame_line(depth++, ret - 1);   /* -1: the call, not the instruction after it */
		if (ret == (uint64_t)trap_return) {
			/* An interrupt: trap_dispatch's frame sits on the saved
			 * registers, so go on from the code it interrupted. */
			const struct trap_frame *f = (const struct trap_frame *)(rbp + 16);
			uint64_t f_rip, f_rsp, f_rbp;
			if (safe_read_u64(&f->rip, &f_rip) || safe_read_u64(&f->rsp, &f_rsp) ||
			    safe_read_u64(&f->rbp, &f_rbp))
				break;
			pr_emerg("  -- interrupted (vector %llu) --", (unsigned long long)f->vector);
			depth = print_start(depth, f_rip, f_rsp);
			next_rbp = f_rbp;
		}
		if (next_rbp <= rbp)                  /* stacks grow down: callers live higher */
			break;
		rbp = next_rbp;
	}
}

/* The caller's chain, kept for later (kernel/debug/lockdep.c shows where a lock
 * order was first seen): up to max return addresses, each already -1 (the
 * call), a 0 where an interrupt came in. Returns how many. */
int backtrace_save(uint64_t *ips, int max)
{
	uint64_t rbp = (uint64_t)__builtin_frame_address(0);
	int n = 0;
	while (rbp && n < max) {
		uint64_t next_rbp, ret;
		if ((rbp & 7) || safe_read_u64((void *)rbp, &next_rbp) || safe_read_u64((void *)(rbp + 8), &ret) ||
		    ret == 0)
			break;
		ips[n++] = ret - 1;
		if (ret == (uint64_t)trap_return) {
			const struct trap_frame *f = (const struct trap_frame *)(rbp + 16);
			uint64_t f_rip;
			if (n + 2 > max || safe_read_u64(&f->rip, &f_rip) || safe_read_u64(&f->rbp, &next_rbp))
				break;
			ips[n - 1] = 0;           /* trap_dispatch's return says nothing: mark the interrupt */
			ips[n++] = f_rip;
		}
		if (next_rbp <= rbp)
			break;
		rbp = next_rbp;
	}
	return n;
}

void backtrace_print_saved(const char *indent, const uint64_t *ips, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t offset;
		const char *name = ips[i] ? ksym_lookup(ips[i], &offset) : NULL;
		if (!ips[i])
			pr_warn("%s-- interrupted --", indent);
		else if (name)
			pr_warn("%s#%-2d %s+0x%llx", indent, i, name, (unsigned long long)offset);
		else
			pr_warn("%s#%-2d 0x%016llx ?", indent, i, (unsigned long long)ips[i]);
	}
}

static void print_registers(const struct trap_frame *f)
{
	pr_emerg("RIP %04llx:%016llx RFLAGS %016llx", (unsigned long long)f->cs, (unsigned long long)f->rip,
	       (unsigned long long)f->rflags);
	pr_emerg("RSP %04llx:%016llx ERR %016llx CR2 %016llx", (unsigned long long)f->ss,
	       (unsigned long long)f->rsp, (unsigned long long)f->error_code, (unsigned long long)read_cr2());
	pr_emerg("RAX %016llx RBX %016llx RCX %016llx", (unsigned long long)f->rax, (unsigned long long)f->rbx,
	       (unsigned long long)f->rcx);
	pr_emerg("RDX %016llx RSI %016llx RDI %016llx", (unsigned long long)f->rdx, (unsigned long long)f->rsi,
	       (unsigned long long)f->rdi);
	pr_emerg("RBP %016llx R8  %016llx R9  %016llx", (unsigned long long)f->rbp, (unsigned long long)f->r8,
	       (unsigned long long)f->r9);
	pr_emerg("R10 %016llx R11 %016llx R12 %016llx", (unsigned long long)f->r10, (unsigned long long)f->r11,
	       (unsigned long long)f->r12);
	pr_emerg("R13 %016llx R14 %016llx R15 %016llx", (unsigned long long)f->r13, (unsigned long long)f->r14,
	       (unsigned long long)f->r15);
	pr_emerg("CR0 %016llx CR3 %016llx CR4 %016llx", (unsigned long long)read_cr0(),
	       (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

void panic_nmi_stop(const struct trap_frame *frame)
{
	struct cpu *me = this_cpu();
	me->stopped_isr = lapic_highest_vector(true);
	me->stopped_irr = lapic_highest_vector(false);
	__atomic_store_n(&me->stopped_at, frame, __ATOMIC_RELEASE);
	halt_forever();
}

/* Where the NMI found each other CPU: a hang between CPUs shows both ends. */
static void print_other_cpus(int me)
{
	uint64_t deadline = clock_ns() + 100000000ULL;
	for (int i = 0; i < nr_cpus; i++) {
		if (i == me || !cpu_online(i))
			continue;
		while (!__atomic_load_n(&cpus[i].stopped_at, __ATOMIC_ACQUIRE) && clock_ns() < deadline)
			cpu_relax();
		const struct trap_frame *f = __atomic_load_n(&cpus[i].stopped_at, __ATOMIC_ACQUIRE);
		if (!f) {
			pr_emerg("cpu%d did not answer the NMI", i);
			continue;
		}
		pr_emerg("cpu%d was running %s, interrupts %s, LAPIC vectors in service 0x%x, waiting 0x%x:", i,
			 cpus[i].context ? cpus[i].context : "?", f->rflags & RFLAGS_IF ? "on" : "off",
			 cpus[i].stopped_isr, cpus[i].stopped_irr);
		backtrace_print(f->rip, f->rsp, f->rbp);
	}
}

static void __attribute__((noreturn)) vpanic(const struct trap_frame *frame, const char *fmt, va_list ap)
{
	irq_disable();
	int me = this_cpu()->id;
	int expected = -1;
	/* One CPU reports; any other that panics meanwhile just stops. */
	if (!__atomic_compare_exchange_n(&panic_cpu, &expected, me, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		halt_forever();

	lapic_send_nmi_to_others();
	console_take_over();

	char reason[256];
	vsnprintf(reason, sizeof(reason), fmt, ap);
	pr_emerg("PANIC: %s", reason);
	pr_emerg("in %s on cpu%d", this_cpu()->context ? this_cpu()->context : "early boot", me);
	if (frame) {
		print_registers(frame);
		backtrace_print(frame->rip, frame->rsp, frame->rbp);
	} else {
		backtrace_print(0, 0, 0);
	}
	print_other_cpus(me);
	power_panic_exit();
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpanic(NULL, fmt, ap);
}

void panic_frame(const struct trap_frame *frame, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpanic(frame, fmt, ap);
}
