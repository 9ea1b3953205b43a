#include "kernel/time/loadavg.h"
#include "sched/api.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"

#define FIXED_1 (1u << LOADAVG_SHIFT)
#define PERIOD_NS (5 * NS_PER_S)

/* exp(-5 s / 1, 5, 15 min) in fixed point: each sample keeps this much of the old average. */
static const uint64_t decay[3] = { 1884, 2014, 2037 };
static uint64_t avenrun[3];       /* atomic: one CPU samples, any reads */
static uint64_t next_sample_ns = PERIOD_NS;

static void sample(unsigned running)
{
	for (int i = 0; i < 3; i++) {
		uint64_t old = __atomic_load_n(&avenrun[i], __ATOMIC_RELAXED);
		uint64_t avg = (old * decay[i] + (uint64_t)running * FIXED_1 * (FIXED_1 - decay[i])) >> LOADAVG_SHIFT;
		__atomic_store_n(&avenrun[i], avg, __ATOMIC_RELAXED);
	}
}

/* The CPU that moves next_sample_ns on takes the sample(s) due. */
static void catch_up(uint64_t now)
{
	uint64_t due = __atomic_load_n(&next_sample_ns, __ATOMIC_RELAXED);
	while (now >= due) {
		if (__atomic_compare_exchange_n(&next_sample_ns, &due, due + PERIOD_NS, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			sample(sched_nr_running());
			due += PERIOD_NS;
		}
	}
}

void loadavg_tick(uint64_t now)
{
	catch_up(now);
}

void loadavg_read(uint64_t avg[3])
{
	catch_up(clock_ns());
	for (int i = 0; i < 3; i++)
		avg[i] = __atomic_load_n(&avenrun[i], __ATOMIC_RELAXED);
}
