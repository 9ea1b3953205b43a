/*
 * Starting the other CPUs, the kernel's part: every CPU the MADT lists,
 * one at a time, up to maxcpus= (arch/x86_64/smp.c does the hardware
 * part; each CPU then enters kmain_secondary(), kernel/entry/main.c).
 */
#include "kernel/entry/smp_boot.h"
#include "kernel/percpu.h"
#include "kernel/multiboot.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/time.h"
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

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/smp_test.c"
