/*
 * SMP bring-up. Each application processor (AP) listed as enabled in the
 * MADT gets a stack and IST stacks, then INIT-SIPI-SIPI sends it through
 * boot/trampoline.asm into ap_main(). The boot CPU starts them one at a time
 * and waits for each to say it is online.
 */
#include "arch/x86_64/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"
#include "kernel/acpi.h"
#include "kernel/multiboot.h"
#include "kernel/percpu.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/params.h"
#include "kernel/timer.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "kernel/ktest.h"
#include "kernel/task.h"
#include "kernel/idle.h"
#include "sched/preempt.h"

extern const uint8_t trampoline_start[], trampoline_end[];
extern uint64_t trampoline_cr3, trampoline_efer, trampoline_stack, trampoline_entry, trampoline_cpu;

static int64_t maxcpus = MAX_CPUS;
BOOT_PARAM_INT("maxcpus", maxcpus, 1, MAX_CPUS, "start at most this many CPUs");

static void *ap_ist_stacks[MAX_CPUS];

/* The trampoline's data slot `field`, in the copy at TRAMPOLINE_BASE. */
static uint64_t *trampoline_slot(const uint64_t *field)
{
	return phys_to_virt(TRAMPOLINE_BASE + ((const uint8_t *)field - trampoline_start));
}

static void __attribute__((noreturn)) ap_main(int id)
{
	struct cpu *cpu = &cpus[id];
	percpu_init(cpu, id);
	gdt_init_cpu(cpu, ap_ist_stacks[id]);
	idt_load();
	lapic_init_cpu();
	task_init_idle(id);
	timer_start_this_cpu();
	__atomic_store_n(&cpu->online, true, __ATOMIC_RELEASE);
	irq_enable();
	idle_loop();
}

static bool trampoline_page_usable(void)
{
	for (int i = 0; i < boot_info.nmem; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		if (r->type == MEM_USABLE && r->base <= TRAMPOLINE_BASE && r->base + r->length >= TRAMPOLINE_BASE + PAGE_SIZE)
			return true;
	}
	return false;
}

static bool wait_online(struct cpu *cpu, uint64_t ns)
{
	uint64_t deadline = clock_ns() + ns;
	while (clock_ns() < deadline)
		if (__atomic_load_n(&cpu->online, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

static bool start_ap(int id, uint32_t apic_id)
{
	struct cpu *cpu = &cpus[id];
	char name[16];
	snprintf(name, sizeof(name), "idle/%d", id);
	void *stack = kstack_alloc(name);
	ap_ist_stacks[id] = pages_alloc(IST_COUNT * IST_STACK_SIZE / PAGE_SIZE);
	if (!stack || !ap_ist_stacks[id]) {
		pr_err("smp: out of memory for cpu%d's stacks", id);
		return false;
	}
	cpu->apic_id = apic_id;
	*trampoline_slot(&trampoline_stack) = (uint64_t)stack;
	*trampoline_slot(&trampoline_cpu) = (uint64_t)id;

	/* The universal start-up algorithm: INIT, 10 ms, SIPI, 200 us, and a
	 * second SIPI only if the first did not take. Real hardware needs the delays. */
	uint64_t t0 = clock_ns();
	lapic_send_init(apic_id);
	delay_ns(10 * 1000 * 1000);
	lapic_send_startup(apic_id, TRAMPOLINE_BASE >> 12);
	if (!wait_online(cpu, 200 * 1000)) {
		lapic_send_startup(apic_id, TRAMPOLINE_BASE >> 12);
		/* Generous: under emulation on a busy host a CPU can take a while. */
		if (!wait_online(cpu, 5000ULL * 1000 * 1000)) {
			pr_err("smp: cpu%d (APIC id %u) did not come online", id, apic_id);
			return false;
		}
	}
	pr_info("smp: cpu%d (APIC id %u) online after %llu us", id, apic_id,
		(unsigned long long)(clock_ns() - t0) / 1000);
	return true;
}

void smp_boot(void)
{
	struct cpu *bsp = this_cpu();
	int listed = 0;
	for (int i = 0; i < acpi.ncpus; i++)
		listed += acpi.cpus[i].enabled;
	pr_info("smp: the MADT lists %d CPUs, %d of them enabled", acpi.ncpus, listed);
	for (int i = 0; i < acpi.ncpus; i++)
		pr_info("smp:   %s APIC id %u, ACPI uid %u, %s%s", acpi.cpus[i].x2apic_entry ? "x2APIC" : "local",
			acpi.cpus[i].apic_id, acpi.cpus[i].uid, acpi.cpus[i].enabled ? "enabled" : "disabled",
			acpi.cpus[i].apic_id == bsp->apic_id ? " (the boot CPU)" : "");

	if (maxcpus > 1 && !trampoline_page_usable()) {
		pr_err("smp: page 0x%lx is not usable RAM here; staying on one CPU", TRAMPOLINE_BASE);
		return;
	}
	memcpy(phys_to_virt(TRAMPOLINE_BASE), trampoline_start, (size_t)(trampoline_end - trampoline_start));
	*trampoline_slot(&trampoline_cr3) = read_cr3();
	*trampoline_slot(&trampoline_efer) = rdmsr(MSR_EFER);
	*trampoline_slot(&trampoline_entry) = (uint64_t)ap_main;

	for (int i = 0; i < acpi.ncpus && nr_cpus < maxcpus; i++) {
		if (!acpi.cpus[i].enabled || acpi.cpus[i].apic_id == bsp->apic_id)
			continue;
		if (!start_ap(nr_cpus, acpi.cpus[i].apic_id))
			break;      /* a late starter could still read the trampoline: start no more */
		nr_cpus++;
	}
	if (listed > maxcpus)
		pr_info("smp: maxcpus=%lld leaves %d CPUs unused", (long long)maxcpus, listed - (int)maxcpus);
}

/* One mailbox per CPU for smp_call_on_cpu(). */
struct call_request {
	struct spinlock lock;         /* one caller at a time */
	void (*fn)(void *);
	void *arg;
	volatile bool done;
};
static struct call_request call_requests[MAX_CPUS];

static void call_function_irq(struct trap_frame *frame)
{
	(void)frame;
	struct call_request *r = &call_requests[this_cpu()->id];
	if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
		return;                   /* a resent IPI whose request already ran */
	r->fn(r->arg);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
}

static void post_request(int cpu, void (*fn)(void *), void *arg)
{
	struct call_request *r = &call_requests[cpu];
	spin_lock(&r->lock);
	r->fn = fn;
	r->arg = arg;
	r->done = false;
	lapic_send_ipi(cpus[cpu].apic_id, VEC_CALL_FUNCTION);
}

/* An IPI is answered within microseconds, even under emulation, unless it
 * was lost: after 100 ms say so, and send it again. */
#define CALL_RESEND_NS 100000000ULL

static void await_request(int cpu)
{
	struct call_request *r = &call_requests[cpu];
	uint64_t resend_at = clock_ns() + CALL_RESEND_NS;
	bool said = false;
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (clock_ns() > resend_at) {
			if (!said)
				pr_warn("smp: cpu%d has not answered a call IPI for 100 ms: sending it again", cpu);
			said = true;
			lapic_send_ipi(cpus[cpu].apic_id, VEC_CALL_FUNCTION);
			resend_at = clock_ns() + CALL_RESEND_NS;
		}
		cpu_relax();
	}
	spin_unlock(&r->lock);
}

static void call_here(void (*fn)(void *), void *arg)
{
	uint64_t flags = irq_save();     /* as if from the IPI handler */
	fn(arg);
	irq_restore(flags);
}

void smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	preempt_disable();                /* "this CPU" must stay this CPU */
	if (cpu == this_cpu()->id) {
		call_here(fn, arg);
	} else {
		post_request(cpu, fn, arg);
		await_request(cpu);
	}
	preempt_enable();
}

/* All CPUs run fn at the same time: post every request, run it here, then
 * wait for the others. */
void smp_call_on_each_cpu(void (*fn)(void *), void *arg)
{
	preempt_disable();
	int me = this_cpu()->id;
	for (int i = 0; i < nr_cpus; i++)
		if (cpus[i].online && i != me)
			post_request(i, fn, arg);
	call_here(fn, arg);
	for (int i = 0; i < nr_cpus; i++)
		if (cpus[i].online && i != me)
			await_request(i);
	preempt_enable();
}

struct flush_range { uint64_t va; size_t len; };

static void flush_range_here(void *arg)
{
	const struct flush_range *r = arg;
	for (uint64_t va = r->va; va < r->va + r->len; va += PAGE_SIZE)
		invlpg(va);
}

void tlb_shootdown(uint64_t va, size_t len)
{
	struct flush_range r = { va, len };
	smp_call_on_each_cpu(flush_range_here, &r);
}

/* Nothing to do: the way out of the interrupt reschedules (trap.c). */
static void reschedule_irq(struct trap_frame *frame)
{
	(void)frame;
}

static void flush_all_here(void *arg)
{
	(void)arg;
	write_cr3(read_cr3());
}

void tlb_flush_all(void)
{
	smp_call_on_each_cpu(flush_all_here, NULL);
}

void smp_init_ipis(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		call_requests[i].lock = (struct spinlock)SPINLOCK_INIT("call_request");
	irq_register(VEC_CALL_FUNCTION, call_function_irq);
	irq_register(VEC_RESCHEDULE, reschedule_irq);
}

static void count_ipi(void *arg)
{
	__atomic_fetch_add((int *)arg + this_cpu()->id, 1, __ATOMIC_RELAXED);
}

KTEST(smp, ipi_reaches_every_cpu)
{
	int hits[MAX_CPUS] = { 0 };
	for (int round = 0; round < 100; round++)
		for (int i = 0; i < nr_cpus; i++)
			smp_call_on_cpu(i, count_ipi, hits);
	for (int i = 0; i < nr_cpus; i++)
		KEXPECT_EQ(t, hits[i], 100);
}

KTEST(smp, every_listed_cpu_is_online)
{
	int enabled = 0;
	for (int i = 0; i < acpi.ncpus; i++)
		enabled += acpi.cpus[i].enabled;
	int expected = enabled < maxcpus ? enabled : (int)maxcpus;
	if (!acpi.have_madt)
		expected = 1;
	KEXPECT_EQ(t, cpus_online(), expected);
}
