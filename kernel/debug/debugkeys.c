#include "kernel/debug/debugkeys.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/power.h"
#include "kernel/task/kthread.h"
#include "kernel/debug/trace_buffer.h"
#include "sched/debug.h"
#include "arch/x86_64/time.h"

struct debugkey {
	char key;
	const char *help;
	void (*fn)(void);
};

static void show_help(void);

static void show_cpus(void)
{
	for (int i = 0; i < nr_cpus; i++)
		pr_info("cpu%d: APIC id %u, %s, %llu ticks, running %s", i, cpus[i].apic_id,
			cpu_online(i) ? "online" : "offline", (unsigned long long)__atomic_load_n(&cpus[i].ticks, __ATOMIC_RELAXED),
			cpus[i].context ? cpus[i].context : "-");
}

static void show_memory(void)
{
	pr_info("memory: %zu of %zu pages free, %zu kmalloc blocks live", pmm_free_pages(), pmm_total_pages(),
		kmalloc_live_blocks());
}

static void show_task(struct task *p, void *arg)
{
	(void)arg;
	sched_task_status(p);
}

static void show_tasks(void)
{
	for_each_task(show_task, NULL);
}

static const struct debugkey keys[] = {
	{ 'h', "list these keys", show_help },
	{ 'c', "show each CPU: APIC id, ticks, what it runs", show_cpus },
	{ 'm', "show memory use", show_memory },
	{ 'd', "dump the runqueues (sched_debug)", sched_debug_dump },
	{ 't', "list every task with its scheduling statistics", show_tasks },
	{ 'r', "start recording a scheduler trace afresh, or stop (docs/tracing.md)", trace_toggle },
	{ 'w', "write the scheduler trace out (ftrace text; stops recording)", trace_dump_later },
	{ 'o', "power off", power_off },
	{ 'b', "reboot", power_reboot },
};

static void show_help(void)
{
	pr_info("debug keys: Ctrl-T, then");
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		pr_info("  %c  %s", keys[i].key, keys[i].help);
}

static void run_key(uint8_t c)
{
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].key == c) {
			keys[i].fn();
			return;
		}
	if (c >= ' ' && c < 127)
		pr_info("debug keys: Ctrl-T '%c' does nothing; Ctrl-T h lists the keys", c);
}

bool debugkeys_take(uint8_t c)
{
	/* The serial interrupt goes to one CPU, which handles it with
	 * interrupts off: one byte at a time. */
	static bool prefixed;
	if (prefixed) {
		prefixed = false;
		if (c == DEBUGKEYS_PREFIX)
			return false;
		run_key(c);
		return true;
	}
	prefixed = c == DEBUGKEYS_PREFIX;
	return prefixed;
}
