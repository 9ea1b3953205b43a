#include "kernel/power.h"
#include "arch/x86_64/acpi.h"
#include "kernel/printk.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/debug/trace_buffer.h"
#include "sched/trace.h"
#include "lib/time_units.h"

bool test_mode;

/* QEMU's isa-debug-exit device (tools/qemu.py adds it): writing v makes QEMU
 * exit with status (v << 1) | 1. */
#define DEBUG_EXIT_PORT 0xf4
enum { EXIT_PASS = 0x10, EXIT_FAIL = 0x11, EXIT_PANIC = 0x12 };   /* QEMU status 33, 35, 37 */

#define SLP_EN  (1u << 13)
#define SCI_EN  1u

static void wait_ms(uint64_t ms)
{
	/* Before time_init() clock_ns() stays 0; spin a bounded while instead. */
	if (!tsc_hz()) {
		for (volatile uint64_t i = 0; i < ms * 100000; i++)
			;
		return;
	}
	delay_ns(ms * NS_PER_MS);
}

void power_off(void)
{
	irq_disable();
	if (acpi.have_s5 && acpi.pm1a_cnt) {
		/* Firmware may still own the power management registers: ask for them. */
		if (!(inw((uint16_t)acpi.pm1a_cnt) & SCI_EN) && acpi.smi_cmd && acpi.acpi_enable) {
			outb((uint16_t)acpi.smi_cmd, acpi.acpi_enable);
			for (int i = 0; i < 300 && !(inw((uint16_t)acpi.pm1a_cnt) & SCI_EN); i++)
				wait_ms(10);
		}
		pr_info("power: off (ACPI S5)");
		outw((uint16_t)acpi.pm1a_cnt, (uint16_t)(acpi.slp_typ_a << 10 | SLP_EN));
		if (acpi.pm1b_cnt)
			outw((uint16_t)acpi.pm1b_cnt, (uint16_t)(acpi.slp_typ_b << 10 | SLP_EN));
		wait_ms(500);
	}
	pr_err("power: this machine did not power off (no usable ACPI S5); halted, safe to switch off");
	halt_forever();
}

void power_reboot(void)
{
	irq_disable();
	pr_info("power: rebooting");
	if (acpi.have_reset_reg) {
		if (acpi.reset_reg.space == 1)
			outb((uint16_t)acpi.reset_reg.address, acpi.reset_value);
		else if (acpi.reset_reg.space == 0 && acpi.reset_reg.address < (4ULL << 30))
			*(volatile uint8_t *)phys_to_virt(acpi.reset_reg.address) = acpi.reset_value;
		wait_ms(500);
	}
	outb(0x64, 0xfe);                 /* the keyboard controller's reset line */
	wait_ms(500);
	triple_fault();                   /* the last resort */
}

static void __attribute__((noreturn)) debug_exit(int code)
{
	outl(DEBUG_EXIT_PORT, (uint32_t)code);
	/* Still here: not under QEMU, or the device is missing. */
	power_off();
}

void power_test_exit(bool passed)
{
	if (trace_on)                     /* a traced run= or ktest= boot: the trace goes out first */
		trace_dump();
	pr_info("test: %s", passed ? "all passed" : "FAILED");
	debug_exit(passed ? EXIT_PASS : EXIT_FAIL);
}

void power_panic_exit(void)
{
	if (test_mode)
		debug_exit(EXIT_PANIC);
	pr_err("System halted.");
	halt_forever();
}
