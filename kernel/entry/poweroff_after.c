/* poweroff_after=N: power off N seconds after kernel entry, so a boot with no
 * test (make run, a benchmark under Bochs) still ends by itself. */
#include "kernel/entry/poweroff_after.h"
#include "kernel/time/timer.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/power.h"
#include "lib/time_units.h"

static int64_t poweroff_after;
BOOT_PARAM_INT("poweroff_after", poweroff_after, 0, 86400, "power off after this many seconds; 0 for never");

static void poweroff_now(struct timer *t)
{
	(void)t;
	pr_info("poweroff_after=%lld reached: powering off", (long long)poweroff_after);
	power_off();
}

static struct timer poweroff_timer = TIMER_INIT(poweroff_now);

void poweroff_after_start(void)
{
	if (poweroff_after)
		timer_start(&poweroff_timer, (uint64_t)poweroff_after * NS_PER_S);
}
