#include "arch/x86_64/time.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/params.h"
#include "lib/sort.h"
#include "lib/time_units.h"

static uint64_t tsc_at_boot;
static uint64_t tsc_rate;         /* Hz */
/* ns = tsc_delta * ns_mult >> 32: a multiply instead of a division per read. */
static uint64_t ns_mult;

static const char *const clock_sources[] = { "auto", "cpuid", "hpet", "pit", NULL };
enum { SOURCE_AUTO, SOURCE_CPUID, SOURCE_HPET, SOURCE_PIT };
static int clocksource = SOURCE_AUTO;
BOOT_PARAM_CHOICE("clocksource", clocksource, clock_sources,
		  "how to learn the TSC frequency: auto tries cpuid, then hpet, then pit");

uint64_t clock_ns(void)
{
	if (!ns_mult)
		return 0;
	return (uint64_t)(((unsigned __int128)(rdtsc() - tsc_at_boot) * ns_mult) >> 32);
}

void clock_parameters(uint64_t *at_boot, uint64_t *mult)
{
	*at_boot = tsc_at_boot;
	*mult = ns_mult;
}

uint64_t tsc_hz(void) { return tsc_rate; }

uint64_t ns_to_tsc(uint64_t ns)
{
	/* Split to stay within 64 bits (no 128-bit division in a freestanding kernel). */
	return ns / 1000000000u * tsc_rate + ns % 1000000000u * tsc_rate / 1000000000u;
}

void delay_ns(uint64_t ns)
{
	uint64_t end = clock_ns() + ns;
	while (clock_ns() < end)
		cpu_relax();
}

/* CPUID 0x15 gives the TSC/crystal ratio and (sometimes) the crystal's
 * frequency; 0x16 the base frequency in MHz. Many CPUs and VMs leave them 0. */
static uint64_t cpuid_tsc_hz(void)
{
	uint32_t max_leaf = cpuid(0, 0).eax;
	if (max_leaf >= 0x15) {
		struct cpuid r = cpuid(0x15, 0);
		if (r.eax && r.ebx && r.ecx)
			return (uint64_t)r.ecx * r.ebx / r.eax;
	}
	if (max_leaf >= 0x16) {
		struct cpuid r = cpuid(0x16, 0);
		if (r.eax & 0xffff)
			return (uint64_t)(r.eax & 0xffff) * 1000000;
	}
	return 0;
}

/* TSC ticks over 20 ms of HPET time; the median of `rounds` rounds (at most 5). */
static uint64_t hpet_measure_tsc_hz(int rounds)
{
	uint64_t rate[5];
	for (int r = 0; r < rounds; r++) {
		uint64_t h0 = hpet_read_ns(), t0 = rdtsc(), h1, t1;
		do {
			h1 = hpet_read_ns();
			t1 = rdtsc();
		} while (h1 - h0 < 20 * NS_PER_MS);
		rate[r] = (t1 - t0) * 1000000000u / (h1 - h0);
	}
	sort_u64(rate, rounds);
	return rate[rounds / 2];
}

void time_init(uint64_t entry_tsc)
{
	const char *how = NULL;
	uint64_t hz = 0;

	if (acpi.hpet_phys)
		hpet_init(acpi.hpet_phys);

	if (clocksource == SOURCE_AUTO || clocksource == SOURCE_CPUID) {
		hz = cpuid_tsc_hz();
		how = "CPUID 0x15/0x16";
	}
	/* What CPUID states can be wrong: Bochs's corei7_skylake_x states 3.5 GHz
	 * while its TSC counts 200 M a second. Left to choose, check it. */
	if (hz && clocksource == SOURCE_AUTO && hpet_present()) {
		uint64_t measured = hpet_measure_tsc_hz(1);
		if (measured < hz - hz / 100 || measured > hz + hz / 100) {
			pr_warn("time: CPUID says the TSC runs at %llu MHz, the HPET says %llu MHz: using the HPET",
				(unsigned long long)(hz / 1000000), (unsigned long long)(measured / 1000000));
			hz = 0;
		}
	}
	if (!hz && (clocksource == SOURCE_AUTO || clocksource == SOURCE_HPET)) {
		if (hpet_present()) {
			hz = hpet_measure_tsc_hz(5);
			how = "measured against the HPET";
		}
	}
	if (!hz) {
		if (clocksource != SOURCE_AUTO && clocksource != SOURCE_PIT)
			pr_warn("time: clocksource=%s is not available here, using the PIT", clock_sources[clocksource]);
		hz = pit_measure_tsc_hz();
		how = "measured against the PIT";
	}
	if (hz < 1000000)
		panic("time: TSC frequency %llu Hz is implausible", (unsigned long long)hz);

	tsc_rate = hz;
	ns_mult = (NS_PER_S << 32) / hz;
	tsc_at_boot = entry_tsc;

	bool invariant = cpuid(0x80000000, 0).eax >= 0x80000007 && (cpuid(0x80000007, 0).edx & (1u << 8));
	pr_info("time: TSC at %llu.%03llu MHz (%s), %s", (unsigned long long)(hz / 1000000),
		(unsigned long long)(hz / 1000 % 1000), how,
		invariant ? "invariant" : "not marked invariant (fine under QEMU; on hardware it may drift in deep sleep)");
}
