/*
 * Time. clock_ns() is the kernel's one clock: nanoseconds since kernel entry from the
 * TSC, the same value domain on every CPU. The TSC's rate comes from CPUID
 * where the CPU states it, else it is measured against the HPET or the PIT.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>

void time_init(uint64_t entry_tsc);   /* boot CPU, after ACPI (for the HPET) */
uint64_t clock_ns(void);          /* 0 until time_init() */
/* What clock_ns() computes with: ns = (rdtsc() - *tsc_at_boot) * *ns_mult >> 32
 * (the vDSO computes the same in ring 3: kernel/mm/vdso.c). */
void clock_parameters(uint64_t *tsc_at_boot, uint64_t *ns_mult);
uint64_t tsc_hz(void);
uint64_t ns_to_tsc(uint64_t ns);
void delay_ns(uint64_t ns);       /* busy-wait */

/* The real-time clock's date and time now, as seconds since 1970 (UTC if the
 * firmware keeps UTC, as QEMU and Bochs do by default). */
uint64_t rtc_epoch_seconds(void);

/* The reference timers used for calibration. */
bool hpet_init(uint64_t phys);
bool hpet_present(void);
uint64_t hpet_read_ns(void);
uint64_t pit_measure_tsc_hz(void);
