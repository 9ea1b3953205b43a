/*
 * spawn - the cost of creating, running and reaping a task.
 *
 * Create a task whose function returns at once, start it and join it;
 * repeat count times. Each spawn covers creation (a task and its stack),
 * the new task's first wake-up and run, its exit, and the joiner's wake-up.
 *
 *   count=M    spawns timed                               (default 2000)
 *   warmup=N   untimed spawns first                       (default 100)
 *   cpu=C      CPU of the spawning task, -1 = not pinned;
 *              the child is pinned there too              (default -1)
 *   max_ms=T   stop after T ms of timing                  (default 10000)
 *
 *   RESULT name=spawn cpu=-1 count=2000 elapsed_ms=... us_per_spawn=...
 *          via=kthread
 *
 * ../shared/peer/workloads/spawn.c times fork + _exit + waitpid of a
 * process; leftmost has no processes yet, so this times a kernel task
 * (via=kthread): no address space to copy, no system calls.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"

enum { COUNT, WARMUP, CPU, MAX_MS };

static const struct workload_param spawn_params[] = {
	[COUNT]  = { "count", 2000, 1, 100000000, "spawns timed" },
	[WARMUP] = { "warmup", 100, 0, 100000000, "untimed spawns first" },
	[CPU]    = { "cpu", -1, -1, MAX_CPUS - 1, "CPU of the spawner and its children (-1: not pinned)" },
	[MAX_MS] = { "max_ms", 10000, 1, 3600000, "cap on the timed interval, in ms" },
};

static void child(void *arg)
{
	(void)arg;                        /* returning is task_exit(0) */
}

static int spawn_one(void *arg)
{
	int cpu = (int)(intptr_t)arg;
	struct task *p = task_create("spawn-child", child, NULL);
	if (!p) {
		pr_err("spawn: out of memory for a task");
		return -1;
	}
	pin_task(p, cpu);                 /* a forked child inherits its parent's CPUs */
	task_start(p);
	int code = task_join(p);
	if (code != 0) {
		pr_err("spawn: a child exited with %d", code);
		return -1;
	}
	return 0;
}

static int run_spawn(const int64_t *v)
{
	if (check_cpu("spawn", "cpu", v[CPU]) < 0)
		return -1;
	cpumask_t saved = pin_self((int)v[CPU]);
	uint64_t elapsed;
	int64_t done = repeat_timed(spawn_one, (void *)(intptr_t)v[CPU], v[WARMUP], v[COUNT], v[MAX_MS], 64, &elapsed);
	restore_affinity(saved);
	if (done < 0)
		return -1;

	struct result r;
	result_begin(&r, "spawn");
	result_add(&r, "cpu=%lld count=%lld", (long long)v[CPU], (long long)done);
	result_fixed(&r, "elapsed_ms", div_round(elapsed, NS_PER_MS / 10), 1);
	result_fixed(&r, "us_per_spawn", div_round(elapsed, (uint64_t)done), 3);   /* ns = us to 3 decimals */
	result_add(&r, "via=kthread");
	result_print(&r);
	return 0;
}

WORKLOAD(spawn, "us per create + start + join of a task that returns at once", spawn_params, run_spawn);
