#include "kernel/time/realtime.h"
#include "kernel/printk.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"

static uint64_t clock_zero_realtime;   /* set once at boot */

void realtime_init(void)
{
	/* The RTC counts whole seconds: the time is known to within one. */
	uint64_t seconds = rtc_epoch_seconds();
	clock_zero_realtime = seconds * NS_PER_S - clock_ns();
	pr_info("time: the real-time clock says %llu s since 1970", (unsigned long long)seconds);
}

uint64_t realtime_at_clock_zero(void)
{
	return clock_zero_realtime;
}

uint64_t realtime_ns(void)
{
	return clock_zero_realtime + clock_ns();
}
