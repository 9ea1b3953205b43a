/*
 * spawn - the cost of creating, running and reaping a process.
 *
 * Fork a child that calls _exit(0) at once and wait for it; repeat count
 * times. Each spawn covers fork (a new process and a copy-on-write copy of
 * our address space), the child's first wake-up and run, its exit, and the
 * parent's wake-up in waitpid.
 *
 *   count=M    spawns timed                               (default 2000)
 *   warmup=N   untimed spawns first                       (default 100)
 *   cpu=C      CPU of the spawning process, -1 = not
 *              pinned; its children inherit it            (default -1)
 *   max_ms=T   stop after T ms of timing                  (default 10000)
 *
 *   RESULT name=spawn cpu=-1 count=2000 elapsed_ms=... us_per_spawn=...
 *          via=fork
 */
#include "workload.h"

enum { COUNT, WARMUP, CPU, MAX_MS, NPARAMS };

static struct param params[NPARAMS] = {
	[COUNT]  = { "count", 2000, 1, 100000000, "spawns timed" },
	[WARMUP] = { "warmup", 100, 0, 100000000, "untimed spawns first" },
	[CPU]    = { "cpu", -1, -1, MAX_CPU, "CPU of the spawner and children (-1: not pinned)" },
	[MAX_MS] = { "max_ms", 10000, 1, 3600000, "cap on the timed interval, in ms" },
};

static void spawn_one(void *unused)
{
	(void)unused;
	fork_and_reap();
}

int main(int argc, char **argv)
{
	params_parse("spawn", "us per fork + exit + waitpid of a child that exits at once",
		     argc, argv, params, NPARAMS);
	int cpu = (int)params[CPU].value;
	check_cpu("cpu", cpu);
	pin_to_cpu(cpu);

	uint64_t elapsed;
	long done = repeat_timed(spawn_one, NULL, params[WARMUP].value, params[COUNT].value,
				 params[MAX_MS].value, 64, &elapsed);

	result_begin();
	result_add("cpu=%d count=%ld", cpu, done);
	result_add("elapsed_ms=%.1f", (double)elapsed / 1e6);
	result_add("us_per_spawn=%.3f", (double)elapsed / 1e3 / (double)done);
	result_add("via=fork");
	result_end();
	return 0;
}
