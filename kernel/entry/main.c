/*
 * How each CPU starts, side by side: kmain() for the boot CPU, and
 * kmain_secondary() below it for the others. The boot CPU arrives in kmain
 * from boot/entry.asm, in 64-bit mode at the kernel's higher-half address,
 * on the boot stack, and brings the machine up in dependency order
 * (docs/boot.md walks through it); its first task starts the other CPUs
 * and then runs the tests, the programs asked for, the deliberate crash, or
 * /bin/init (the demo, then a shell).
 */
#include <stdint.h>
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/tty/serial.h"
#include "kernel/tty/tty.h"
#include "kernel/mm/vdso.h"
#include "kernel/percpu.h"
#include "kernel/params.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/page_owner.h"
#include "kernel/mm/vmm.h"
#include "kernel/fs/ramfs/initramfs.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/task/process.h"
#include "kernel/debug/image_checksum.h"
#include "kernel/task/futex.h"
#include "kernel/time/realtime.h"
#include "lib/util.h"
#include "lib/string.h"
#include "kernel/entry/smp_boot.h"
#include "kernel/smp_call.h"
#include "kernel/time/timer.h"
#include "kernel/time/tick.h"
#include "kernel/time/heartbeat.h"
#include "kernel/entry/poweroff_after.h"
#include "kernel/power.h"
#include "kernel/debug/ktest.h"
#include "kernel/debug/crash.h"
#include "kernel/panic.h"
#include "kernel/task/kthread.h"
#include "kernel/entry/cpu_idle.h"
#include "kernel/debug/trace_buffer.h"
#include "kernel/entry/run.h"
#include "sched/debug.h"
#include "sched/wait.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/user.h"
#include "lib/time_units.h"

static char ktest_filter[CMDLINE_MAX_WORD];
BOOT_PARAM_STRING("ktest", ktest_filter,
		  "run in-kernel tests and exit QEMU with the verdict: all, or suites separated by commas (-name leaves one out)");
static char run_arg[CMDLINE_MAX_WORD];
BOOT_PARAM_STRING("run", run_arg,
		  "run workloads, then power off: name:key=value,...;name... ('run=list' lists them)");
static int64_t sched_debug_every;
BOOT_PARAM_INT("sched_debug_every", sched_debug_every, 0, 3600,
	       "dump the runqueues (as the 'd' key does) every this many seconds; 0 for never");
static bool show_params;
BOOT_PARAM_BOOL("help", show_params, "list every boot parameter at boot");
static char init_path[CMDLINE_MAX_WORD];
BOOT_PARAM_STRING("init", init_path,
		  "run this program from the initramfs (init=/bin/hello, or init=\"/bin/x arg...\"), say how it ended, then power off");

/* A test run was asked for (run=, init=, ktest=) but its value could not
 * be read: the command line was cut, or the value had a bad quote. */
static bool test_unreadable;

/* Does a word of the command line set name ("name=...", or quoted whole
 * as GRUB quotes a word with spaces: "\"name=a b\"")? */
static bool cmdline_sets(const char *name)
{
	size_t len = strlen(name);
	for (const char *s = boot_info.cmdline; *s; s++) {
		const char *word = *s == '"' ? s + 1 : s;
		if ((s == boot_info.cmdline || s[-1] == ' ') && strncmp(word, name, len) == 0 && word[len] == '=')
			return true;
	}
	return false;
}

static uint8_t bsp_ist_stacks[IST_COUNT * IST_STACK_SIZE] __attribute__((aligned(16)));

static void periodic_sched_debug(void *arg)
{
	(void)arg;
	for (;;) {
		sleep_ns((uint64_t)sched_debug_every * NS_PER_S);
		sched_debug_dump();
	}
}

/* init=: the first program (Linux's name for it) runs to its end; true if
 * it exited with status 0 and left the kernel's code as it found it (no
 * program should be able to change it: kernel/debug/image_checksum.c). The
 * verdict is the boot's, so `make run` ends with the program's success or
 * failure, as with run=. Words after the path are its arguments:
 * init="/bin/runlist /peer/spawn count=10". */
static bool run_init_program(char *line)
{
	uint64_t image_before = image_checksum();
	int status = run_command("init", line);
	if (image_checksum() != image_before) {
		pr_err("init: the kernel's code or read-only data changed while it ran");
		return false;
	}
	pr_info("init: the kernel's code and read-only data are unchanged (checksum %016llx)",
		(unsigned long long)image_before);
	return status == 0;
}

/* demo= is /bin/init's (user/bin/init.c reads it in /proc/cmdline); the
 * kernel only checks it, so that a misspelt demo is told at boot. */
static const char *const demos[] = { "cfs", "balance", "none", NULL };
static int demo_choice;
BOOT_PARAM_CHOICE("demo", demo_choice, demos, "the demo /bin/init shows before the shell: cfs, balance, none");

/* With no test asked for: /bin/init, the first program, which shows the
 * demo and then gives the console to a shell. It runs as long as the
 * machine does; if it ends, the debug keys are all that is left. */
static void start_first_program(void)
{
	const char *const argv[] = { "/bin/init", NULL };
	const char *const envp[] = { "HOME=/", "PATH=/bin", "TERM=linux", NULL };
	int status, pid = process_spawn(argv[0], argv, envp);
	if (pid < 0) {
		pr_err("init: cannot run /bin/init: error %d; only the debug keys (Ctrl-T h) are left", -pid);
		return;
	}
	process_wait(pid, &status);
	pr_err("init: /bin/init ended (wait status %#x); only the debug keys (Ctrl-T h) are left", status);
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
		cpus_online(), (unsigned long long)(clock_ns() - t0) / NS_PER_MS,
		(unsigned long long)clock_ns() / NS_PER_MS);
	tty_init();                                     /* the console terminal's line discipline */
	serial_enable_rx_irq();                         /* typing reaches it */

	tasks_start_reaper();
	vdso_init();                                    /* the clock in ring 3, for every program */
	fs_init();                                      /* the root: /tmp, /dev and its devices */
	initramfs_init();                               /* the files GRUB loaded, into it: /bin/... */
	procfs_init();                                  /* /proc: the processes, the scheduler */
	if (sched_debug_every)
		task_detach(task_spawn("sched_debug", periodic_sched_debug, NULL));

	if (test_unreadable) {
		/* A script waits for this run's verdict: never the demo instead. */
		pr_err("cmdline: the run it asks for could not be read (the warning above says why)");
		power_test_exit(false);
	}
	if (ktest_filter[0])
		power_test_exit(ktest_run(ktest_filter));
	if (run_arg[0]) {
		int failed = run_list(run_arg);
		pr_info("run: done%s", failed ? ", with errors" : "");
		power_test_exit(failed == 0);
	}
	if (init_path[0])
		power_test_exit(run_init_program(init_path));
	if (crash_requested()) {
		crash_now();
		panic("crash: the deliberate crash did not crash");
	}
	pr_info("leftmost is up. Debug keys on the console: Ctrl-T h lists them. Quit QEMU with Ctrl-A X.");
	start_first_program();
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
	uint64_t entry_tsc = rdtsc();                   /* clock_ns() counts from here */
	struct cpu *bsp = &cpus[0];
	percpu_init();                                  /* this_cpu() is bsp: printk needs it */
	bsp->context = "kmain";
	serial_init();                                  /* the console, COM1 */
	gdt_init_cpu(&bsp->arch, bsp_ist_stacks);       /* segments, and stacks for bad faults */
	idt_init();                                     /* every vector to isr.asm */
	idt_load();

	multiboot_parse(multiboot_info_phys);           /* copy out what GRUB tells us */
	pr_info("leftmost: booting");
	params_parse(boot_info.cmdline);                /* the command line into the BOOT_PARAMs */
	bool asks_test = cmdline_sets("run") || cmdline_sets("init") || cmdline_sets("ktest");
	test_unreadable = asks_test && (boot_info.cmdline_cut || (cmdline_sets("run") && !run_arg[0]) ||
					(cmdline_sets("init") && !init_path[0]) ||
					(cmdline_sets("ktest") && !ktest_filter[0]));
	test_mode = asks_test || crash_requested();
	if (show_params)
		params_print_all();
	multiboot_print_memory_map();

	pmm_init();                                     /* the page allocator */
	page_owner_init();                              /* page_owner= */
	vmm_init();                                     /* the kernel's page tables */
	acpi_init(boot_info.rsdp, boot_info.rsdp_len);  /* the CPUs, IOAPICs and HPET */
	time_init(entry_tsc);                           /* clock_ns(), from the TSC */
	realtime_init();                                /* the date, from the RTC */

	pic_disable();                                  /* the 8259s, masked for good */
	lapic_init_bsp();                               /* x2APIC or xAPIC */
	lapic_init_cpu();                               /* this CPU's local APIC */
	arch_user_init_cpu();                           /* system calls, SSE; SMEP, SMAP */
	bsp->apic_id = lapic_id();
	ioapic_init();                                  /* device interrupts, all masked */
	smp_init_ipis();                                /* interrupts between CPUs */
	timer_init();                                   /* the LAPIC timer, calibrated */
	tasks_init();                                   /* tasks and the scheduler */
	trace_init();                                   /* the scheduler trace (trace=) */
	futex_init();                                   /* where threads wait for each other */
	task_init_idle(0);                              /* this CPU becomes idle/0 */
	tick_start_this_cpu();                          /* its scheduler tick */
	heartbeat_start();                              /* heartbeat= */
	poweroff_after_start();                         /* poweroff_after= */
	cpu_set_online();                               /* other CPUs may send it work */
	irq_enable();

	void *stack = kstack_alloc("idle/0");           /* the boot stack has no guard */
	if (!stack)
		panic("kmain: no memory for the boot CPU's stack");
	run_on_stack(stack, kmain_on_idle_stack);       /* the first task, then idle */
}

/* Each other CPU, from ap_main() (arch/x86_64/smp.c), with its GS base,
 * GDT, IDT and local APIC set up already. */
void kmain_secondary(int cpu)
{
	arch_user_init_cpu();                           /* system calls, SSE; SMEP, SMAP */
	task_init_idle(cpu);                            /* this CPU becomes idle/N */
	tick_start_this_cpu();                          /* its scheduler tick */
	cpu_set_online();                               /* smp_boot() may start the next */
	irq_enable();
	idle_loop();                                    /* on the stack smp_boot() gave it */
}
