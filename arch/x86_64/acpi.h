/*
 * ACPI tables: where the CPUs, interrupt controllers and HPET are, and how to
 * power off or reset. Only the static tables are read (the RSDP, RSDT/XSDT,
 * MADT, HPET and FADT), plus the \_S5 sleep values from the DSDT.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define ACPI_MAX_CPUS     256
#define ACPI_MAX_IOAPICS  8
#define ACPI_MAX_OVERRIDES 16

struct acpi_cpu { uint32_t apic_id; uint32_t uid; bool enabled; bool x2apic_entry; };
struct acpi_ioapic { uint32_t id, phys, gsi_base; };
struct acpi_override { uint8_t isa_irq; uint32_t gsi; uint16_t flags; };  /* MPS INTI flags */

/* A generic address structure: a register in memory or I/O space. */
struct acpi_gas {
	uint8_t space;                /* 0 memory, 1 I/O port */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address;
} __attribute__((packed));

struct acpi_info {
	bool have_madt;
	uint64_t lapic_phys;
	int ncpus;
	struct acpi_cpu cpus[ACPI_MAX_CPUS];
	int nioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	int noverrides;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	bool legacy_pics;             /* MADT PCAT_COMPAT: 8259s are present */
	uint64_t hpet_phys;           /* 0 if none */

	/* From the FADT, for power off and reset. */
	uint32_t pm1a_cnt, pm1b_cnt, smi_cmd;
	uint8_t acpi_enable;
	bool have_s5;
	uint16_t slp_typ_a, slp_typ_b;
	bool have_reset_reg;
	struct acpi_gas reset_reg;
	uint8_t reset_value;
};

extern struct acpi_info acpi;

/* rsdp_copy: the RSDP as the boot loader copied it; with rsdp_len 0 (none),
 * it is looked for where BIOSes put it. */
void acpi_init(const void *rsdp_copy, size_t rsdp_len);
