/*
 * The page the kernel shares with its vDSO (arch/x86_64/vdso/vclock.c),
 * mapped read-only just below the vDSO's code in every process, filled in
 * once at boot (kernel/mm/vdso.c): what the kernel's own clock_ns() and
 * realtime_ns() compute with, so that the two clocks read the same.
 */
#pragma once
#include <stdint.h>

struct vdso_data {
	uint64_t tsc_at_boot;             /* CLOCK_MONOTONIC, in ns: (rdtsc() - tsc_at_boot) * ns_mult >> 32 */
	uint64_t ns_mult;
	uint64_t realtime_at_clock_zero;  /* CLOCK_REALTIME: this + CLOCK_MONOTONIC */
};
