/*
 * The local APIC of each CPU: interrupts between CPUs (IPIs), the end-of-
 * interrupt signal, and the per-CPU timer. x2APIC (MSRs) when the CPU has it,
 * xAPIC (memory-mapped registers) otherwise; callers don't see the difference.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>

/*
 * What a CPU last wrote to its own LAPIC, kept in its per-CPU area. Under
 * emulation every LAPIC register access traps into the emulator, so writes
 * that would change nothing are skipped. Only the CPU itself writes them,
 * with interrupts off.
 */
enum lapic_timer_mode { LAPIC_TIMER_MASKED, LAPIC_TIMER_ONESHOT, LAPIC_TIMER_DEADLINE };  /* masked: after reset, init, calibration */
struct lapic_shadow {
	enum lapic_timer_mode timer_mode;
	uint32_t icr_high;
};

void lapic_init_bsp(void);                /* after ACPI: choose the mode, map registers */
void lapic_init_cpu(void);                /* enable this CPU's LAPIC */
bool lapic_ready(void);
int lapic_highest_vector(bool in_service);    /* ISR (true) or IRR (false); 0 if empty */
bool lapic_x2apic_mode(void);
uint32_t lapic_id(void);
void lapic_eoi(void);

void lapic_send_ipi(uint32_t apic_id, int vector);
void lapic_send_nmi_to_others(void);
void lapic_send_init(uint32_t apic_id);
void lapic_send_startup(uint32_t apic_id, uint32_t page_number);

/* The timer. lapic_timer_calibrate() needs clock_ns() working. */
void lapic_timer_calibrate(void);
uint64_t lapic_timer_hz(void);            /* counts per second at divide-by-1 */
/* False if ns is beyond the counter's reach: it then interrupts early, at its maximum. */
bool lapic_timer_oneshot_ns(uint64_t ns);
bool lapic_has_tsc_deadline(void);
void lapic_timer_tsc_deadline(uint64_t tsc);
void lapic_timer_stop(void);              /* no timer interrupt until armed again */
