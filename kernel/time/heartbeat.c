/* heartbeat=N: every N seconds, a line with every CPU's tick count and its
 * rise since the line before, to watch the ticks (and nohz) at work. */
#include "kernel/time/heartbeat.h"
#include "kernel/time/timer.h"
#include "kernel/percpu.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "arch/x86_64/time.h"
#include "lib/printf.h"
#include "lib/time_units.h"

static int64_t heartbeat_seconds;
BOOT_PARAM_INT("heartbeat", heartbeat_seconds, 0, 3600, "seconds between heartbeat lines; 0 for none");

static void heartbeat(struct timer *t)
{
	static uint64_t last_ticks[MAX_CPUS];
	char line[512];
	size_t len = (size_t)snprintf(line, sizeof(line), "heartbeat: ticks");
	for (int i = 0; i < nr_cpus && len < sizeof(line); i++) {
		uint64_t ticks = __atomic_load_n(&cpus[i].ticks, __ATOMIC_RELAXED);
		len += (size_t)snprintf(line + len, sizeof(line) - len, " cpu%d=%llu(+%llu)", i,
					(unsigned long long)ticks, (unsigned long long)(ticks - last_ticks[i]));
		last_ticks[i] = ticks;
	}
	pr_info("%s", line);
	uint64_t expires = t->expires;
	timer_forward(&expires, clock_ns(), (uint64_t)heartbeat_seconds * NS_PER_S);
	timer_start(t, expires);
}

static struct timer heartbeat_timer = TIMER_INIT(heartbeat);

void heartbeat_start(void)
{
	if (heartbeat_seconds)
		timer_start(&heartbeat_timer, clock_ns() + (uint64_t)heartbeat_seconds * NS_PER_S);
}
