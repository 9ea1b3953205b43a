/*
 * The other CPUs, the kernel's part: starting every CPU the MADT lists,
 * one at a time (arch/x86_64/ap_boot.c does the hardware part; each CPU then
 * enters kmain_secondary()), and running a function on another CPU
 * through an IPI.
 */
#include "kernel/entry/smp.h"
#include "kernel/percpu.h"
#include "kernel/multiboot.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "kernel/spinlock.h"
#include "sched/preempt.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/ap_boot.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"
#include "lib/printf.h"

static int64_t maxcpus = MAX_CPUS;
BOOT_PARAM_INT("maxcpus", maxcpus, 1, MAX_CPUS, "start at most this many CPUs");

static bool trampoline_page_usable(void)
{
	for (int i = 0; i < boot_info.nmem; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		if (r->type == MEM_USABLE && r->base <= TRAMPOLINE_BASE && r->base + r->length >= TRAMPOLINE_BASE + PAGE_SIZE)
			return true;
	}
	return false;
}

static bool start_cpu(int id, uint32_t apic_id)
{
	struct cpu *cpu = &cpus[id];
	char name[16];
	snprintf(name, sizeof(name), "idle/%d", id);
	void *stack = kstack_alloc(name);
	void *ist_stacks = pages_alloc(IST_COUNT * IST_STACK_SIZE / PAGE_SIZE);
	if (!stack || !ist_stacks) {
		pr_err("smp: out of memory for cpu%d's stacks", id);
		return false;
	}
	cpu->apic_id = apic_id;
	struct cpu_start start = { id, apic_id, &cpu->arch, stack, ist_stacks, &cpu->online };
	uint64_t t0 = clock_ns();
	if (!smp_start_cpu(&start)) {
		pr_err("smp: cpu%d (APIC id %u) did not come online", id, apic_id);
		return false;
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
	smp_trampoline_install();

	for (int i = 0; i < acpi.ncpus && nr_cpus < maxcpus; i++) {
		if (!acpi.cpus[i].enabled || acpi.cpus[i].apic_id == bsp->apic_id)
			continue;
		if (!start_cpu(nr_cpus, acpi.cpus[i].apic_id))
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
	bool done;                            /* atomic: the caller waits on it */
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
	/* smp_call_on_each_cpu() holds every mailbox, taken in CPU order:
	 * each CPU's is a subclass of its own (kernel/lockdep.h). */
	spin_lock_nested(&r->lock, cpu);
	r->fn = fn;
	r->arg = arg;
	r->done = false;
	lapic_send_ipi(cpus[cpu].apic_id, VEC_CALL_FUNCTION);
}

/* An IPI is answered within microseconds unless it was lost, or the
 * emulator's host has not run that CPU for a while (4 virtual CPUs on 2
 * busy cores: 100 ms happens). So it is sent again every 100 ms quietly,
 * and a wait is worth a warning only after 5 s (Linux's csd_lock_timeout). */
#define CALL_RESEND_NS 100000000ULL
#define CALL_WARN_NS   5000000000ULL

static void await_request(int cpu)
{
	struct call_request *r = &call_requests[cpu];
	uint64_t start = clock_ns(), resend_at = start + CALL_RESEND_NS;
	bool said = false;
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (clock_ns() > resend_at) {
			if (!said && clock_ns() - start > CALL_WARN_NS) {
				pr_warn("smp: cpu%d has not answered a call IPI for 5 s (sent again every 100 ms)", cpu);
				said = true;
			}
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
		if (cpu_online(i) && i != me)
			post_request(i, fn, arg);
	call_here(fn, arg);
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_online(i) && i != me)
			await_request(i);
	preempt_enable();
}

/* Nothing to do: the way out of the interrupt reschedules (irq_exit(), kernel/entry/irq.c). */
static void reschedule_irq(struct trap_frame *frame)
{
	(void)frame;
}

void smp_init_ipis(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		call_requests[i].lock = (struct spinlock)SPINLOCK_INIT("call_request");
	irq_register(VEC_CALL_FUNCTION, call_function_irq);
	irq_register(VEC_RESCHEDULE, reschedule_irq);
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/smp_test.c"
