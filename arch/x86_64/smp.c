/*
 * Starting another CPU, the hardware part. An application processor (AP)
 * wakes in 16-bit real mode at a page below 1 MiB: INIT, then a STARTUP
 * IPI naming that page, send it through boot/trampoline.asm into long mode
 * and ap_main(), which loads its GS base, GDT, IDT and LAPIC and hands the
 * CPU to the kernel. CPUs are started one at a time.
 */
#include "arch/x86_64/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/cpu_area.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"
#include "lib/string.h"
#include "lib/time_units.h"

extern const uint8_t trampoline_start[], trampoline_end[];
extern uint64_t trampoline_cr3, trampoline_efer, trampoline_stack, trampoline_entry;

/* The CPU being started: written before its INIT, read by its ap_main(). */
static struct cpu_start starting;

/* The trampoline's data slot `field`, in the copy at TRAMPOLINE_BASE. */
static uint64_t *trampoline_slot(const uint64_t *field)
{
	return phys_to_virt(TRAMPOLINE_BASE + ((const uint8_t *)field - trampoline_start));
}

static void __attribute__((noreturn)) ap_main(void)
{
	percpu_set_area(starting.area);                     /* this_cpu() works */
	gdt_init_cpu(starting.area, starting.ist_stacks);   /* its own GDT and TSS */
	idt_load();                                         /* the IDT every CPU shares */
	lapic_init_cpu();                                   /* its local APIC */
	kmain_secondary(starting.cpu);                      /* the kernel's part, then idle */
}

void smp_trampoline_install(void)
{
	memcpy(phys_to_virt(TRAMPOLINE_BASE), trampoline_start, (size_t)(trampoline_end - trampoline_start));
	*trampoline_slot(&trampoline_cr3) = read_cr3();
	*trampoline_slot(&trampoline_efer) = rdmsr(MSR_EFER);
	*trampoline_slot(&trampoline_entry) = (uint64_t)ap_main;
}

static bool wait_online(const bool *online, uint64_t ns)
{
	uint64_t deadline = clock_ns() + ns;
	while (clock_ns() < deadline)
		if (__atomic_load_n(online, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

bool smp_start_cpu(const struct cpu_start *start)
{
	starting = *start;
	*trampoline_slot(&trampoline_stack) = (uint64_t)start->stack;

	/* The universal start-up algorithm: INIT, 10 ms, SIPI, 200 us, and a
	 * second SIPI only if the first did not take. Real hardware needs the delays. */
	lapic_send_init(start->apic_id);
	delay_ns(10 * NS_PER_MS);
	lapic_send_startup(start->apic_id, TRAMPOLINE_BASE >> 12);
	if (wait_online(start->online, 200 * 1000))
		return true;
	lapic_send_startup(start->apic_id, TRAMPOLINE_BASE >> 12);
	/* Generous: under emulation on a busy host a CPU can take a while. */
	return wait_online(start->online, 5000 * NS_PER_MS);
}
