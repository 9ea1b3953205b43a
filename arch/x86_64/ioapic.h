/* Device interrupts: the legacy 8259 PICs are masked; IOAPICs route lines. */
#pragma once

void pic_disable(void);
void ioapic_init(void);          /* on the boot CPU, its LAPIC enabled */
/* Route an ISA interrupt (after ACPI overrides) to the boot CPU; returns its
 * vector, or -1 if no IOAPIC serves it. */
int ioapic_route_isa_irq(int isa_irq);
