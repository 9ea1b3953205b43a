/*
 * kmain: the boot CPU arrives here from boot/entry.asm, in 64-bit mode at
 * the kernel's higher-half address, on the boot stack. It brings the machine
 * up in dependency order (docs/boot.md walks through it), starts the other
 * CPUs, and then runs the tests, the deliberate crash, or the heartbeat.
 */
#include <stdint.h>
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/serial.h"
#include "kernel/percpu.h"
#include "kernel/params.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "kernel/acpi.h"
#include "kernel/timer.h"
#include "kernel/power.h"
#include "kernel/ktest.h"
#include "kernel/crash.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "kernel/idle.h"
#include "kernel/trace.h"
#include "user/workload.h"
#include "user/demo.h"
#include "sched/debug.h"
#include "sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/smp.h"

static char ktest_filter[128];
BOOT_PARAM_STRING("ktest", ktest_filter,
		  "run in-kernel tests and exit QEMU with the verdict: all, or suites separated by commas (-name leaves one out)");
static char run_list[1024];
BOOT_PARAM_STRING("run", run_list,
		  "run workloads, then power off: name:key=value,...;name... ('run=list' lists them)");
static int64_t sched_debug_every;
BOOT_PARAM_INT("sched_debug_every", sched_debug_every, 0, 3600,
	       "dump the runqueues (as the 'd' key does) every this many seconds; 0 for never");
static bool show_params;
BOOT_PARAM_BOOL("help", show_params, "list every boot parameter at boot");

static uint8_t bsp_ist_stacks[IST_COUNT * IST_STACK_SIZE] __attribute__((aligned(16)));

/* Leave the boot stack (which has no guard) for a guarded one and go on there. */
static void __attribute__((noreturn)) run_on_stack(void *top, void (*fn)(void))
{
	__asm__ volatile("movq %0, %%rsp\n\t"
			 "xorl %%ebp, %%ebp\n\t"
			 "callq *%1"
			 : : "r"(top), "r"(fn) : "memory");
	__builtin_unreachable();
}

static void periodic_sched_debug(void *arg)
{
	(void)arg;
	for (;;) {
		sleep_ns((uint64_t)sched_debug_every * 1000000000ULL);
		sched_debug_dump();
	}
}

/* The first task: finishes bringing the machine up, then does what the
 * command line asks. The boot CPU itself has become idle/0. */
static void kernel_init(void *arg)
{
	(void)arg;
	uint64_t t0 = clock_ns();
	smp_boot();
	identity_map_remove();
	pr_info("smp: %d CPUs online, %llu ms after the first was started, %llu ms after kernel entry",
		cpus_online(), (unsigned long long)(clock_ns() - t0) / 1000000,
		(unsigned long long)clock_ns() / 1000000);
	serial_enable_rx_irq();

	tasks_start_reaper();
	if (sched_debug_every)
		task_detach(task_spawn("sched_debug", periodic_sched_debug, NULL));

	if (ktest_filter[0])
		power_test_exit(ktest_run(ktest_filter));
	if (run_list[0]) {
		int failed = run_workloads(run_list);
		pr_info("run: done%s", failed ? ", with errors" : "");
		power_test_exit(failed == 0);
	}
	if (crash_requested()) {
		crash_now();
		panic("crash: the deliberate crash did not crash");
	}
	pr_info("leftmost is up. Debug keys on the console: 'h' lists them. Quit QEMU with Ctrl-A X.");
	demo_run();
}

static void __attribute__((noreturn)) kmain_on_idle_stack(void)
{
	struct task *init = task_create("init", kernel_init, NULL);
	if (!init)
		panic("kmain: no memory for the init task");
	task_detach(init);
	task_start(init);
	idle_loop();
}

void __attribute__((noreturn)) kmain(uint64_t multiboot_info_phys)
{
	uint64_t entry_tsc = rdtsc();
	struct cpu *bsp = &cpus[0];
	percpu_init(bsp, 0);
	bsp->context = "kmain";
	serial_init();
	gdt_init_cpu(bsp, bsp_ist_stacks);
	idt_init();
	idt_load();

	multiboot_parse(multiboot_info_phys);
	pr_info("leftmost: booting");
	params_parse(boot_info.cmdline);
	test_mode = ktest_filter[0] || run_list[0] || crash_requested();
	if (show_params)
		params_print_all();
	multiboot_print_memory_map();

	pmm_init();
	vmm_init();
	acpi_init();
	if (acpi.hpet_phys)
		hpet_init(acpi.hpet_phys);
	time_init(entry_tsc);

	pic_disable();
	lapic_init_bsp(acpi.have_madt ? acpi.lapic_phys : (rdmsr(MSR_APIC_BASE) & ~0xfffULL));
	lapic_init_cpu();
	bsp->apic_id = lapic_id();
	ioapic_init();
	smp_init_ipis();
	timer_init();
	tasks_init();
	trace_init();
	task_init_idle(0);
	timer_start_this_cpu();
	bsp->online = true;
	irq_enable();

	void *stack = kstack_alloc("idle/0");
	if (!stack)
		panic("kmain: no memory for the boot CPU's stack");
	run_on_stack(stack, kmain_on_idle_stack);
}
