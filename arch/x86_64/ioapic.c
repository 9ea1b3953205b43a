#include <stdint.h>
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/hooks.h"
#include "kernel/printk.h"

/* Remap the 8259s away from the exception vectors, then mask every line:
 * a spurious interrupt from them then lands on a harmless vector. */
void pic_disable(void)
{
	static const uint8_t init[][2] = {
		{ 0x20, 0x11 }, { 0xa0, 0x11 },                         /* ICW1: initialise, expect ICW4 */
		{ 0x21, VEC_LEGACY_PIC }, { 0xa1, VEC_LEGACY_PIC + 8 }, /* ICW2: vector bases */
		{ 0x21, 0x04 }, { 0xa1, 0x02 },                         /* ICW3: cascade on line 2 */
		{ 0x21, 0x01 }, { 0xa1, 0x01 },                         /* ICW4: 8086 mode */
		{ 0x21, 0xff }, { 0xa1, 0xff },                         /* mask everything */
	};
	for (unsigned i = 0; i < sizeof(init) / sizeof(init[0]); i++)
		outb(init[i][0], init[i][1]);
}

enum { IOREGSEL = 0x00 / 4, IOWIN = 0x10 / 4 };
enum { IOAPIC_VERSION = 0x01, IOAPIC_REDIRECTION = 0x10 };
#define REDIR_MASKED       (1u << 16)
#define REDIR_LEVEL        (1u << 15)
#define REDIR_ACTIVE_LOW   (1u << 13)

static volatile uint32_t *regs[ACPI_MAX_IOAPICS];
static uint32_t lines[ACPI_MAX_IOAPICS];
static uint32_t boot_cpu_apic_id;     /* where every line is routed */

static uint32_t ioapic_read(int i, uint32_t reg) { regs[i][IOREGSEL] = reg; return regs[i][IOWIN]; }
static void ioapic_write(int i, uint32_t reg, uint32_t v) { regs[i][IOREGSEL] = reg; regs[i][IOWIN] = v; }

void ioapic_init(void)
{
	boot_cpu_apic_id = lapic_id();
	for (int i = 0; i < acpi.nioapics; i++) {
		regs[i] = ioremap(acpi.ioapics[i].phys, 0x20);
		lines[i] = ((ioapic_read(i, IOAPIC_VERSION) >> 16) & 0xff) + 1;
		for (uint32_t line = 0; line < lines[i]; line++)
			ioapic_write(i, IOAPIC_REDIRECTION + 2 * line, REDIR_MASKED);
	}
}

int ioapic_route_isa_irq(int isa_irq)
{
	uint32_t gsi = (uint32_t)isa_irq;
	uint16_t flags = 0;                 /* ISA default: edge-triggered, active high */
	for (int i = 0; i < acpi.noverrides; i++) {
		if (acpi.overrides[i].isa_irq == isa_irq) {
			gsi = acpi.overrides[i].gsi;
			flags = acpi.overrides[i].flags;
		}
	}
	for (int i = 0; i < acpi.nioapics; i++) {
		uint32_t base = acpi.ioapics[i].gsi_base;
		if (gsi < base || gsi >= base + lines[i])
			continue;
		int vector = VEC_IRQ_BASE + (int)gsi;
		if (vector >= VEC_LAPIC_TIMER) {
			pr_warn("ioapic: GSI %u is beyond the vectors set aside for devices", gsi);
			return -1;
		}
		uint32_t low = (uint32_t)vector;
		if ((flags & 3) == 3)
			low |= REDIR_ACTIVE_LOW;
		if (((flags >> 2) & 3) == 3)
			low |= REDIR_LEVEL;
		uint32_t line = gsi - base;
		ioapic_write(i, IOAPIC_REDIRECTION + 2 * line + 1, boot_cpu_apic_id << 24);
		ioapic_write(i, IOAPIC_REDIRECTION + 2 * line, low);
		pr_info("ioapic: ISA IRQ %d -> GSI %u -> vector 0x%x on cpu0", isa_irq, gsi, vector);
		return vector;
	}
	pr_warn("ioapic: no IOAPIC serves ISA IRQ %d (GSI %u): that interrupt stays off", isa_irq, gsi);
	return -1;
}
