/*
 * Did the kernel give everything back? What it holds, as a program sees
 * it through sysinfo(): free memory (freeram, and bufferram, which
 * leftmost fills with its own page tables) and its count of tasks
 * (procs). A program takes the figures before its work and again once its
 * processes have all ended, and prints the difference: on leftmost both
 * must come back exactly (kernel/entry/sys_system.c says how free memory is
 * counted for that). On Linux they never do; the figures then say little.
 *
 * Some things go lazily. A dead process's task is freed by the kernel's
 * reaper soon after its parent has waited for it, its stack after a TLB
 * shootdown, and an orphan ends on its own. So the second reading waits,
 * polling, until the figures are back, and gives up after a bound: a leak
 * never comes back.
 */
#include <stdio.h>
#include <sys/sysinfo.h>
#include <time.h>

struct kernel_usage {
	long long free_bytes;
	long tasks;
};

static inline struct kernel_usage kernel_usage_now(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0)
		return (struct kernel_usage){ -1, -1 };
	return (struct kernel_usage){ ((long long)si.freeram + (long long)si.bufferram) * si.mem_unit, si.procs };
}

/* The figures once they are back to `before`, or after `seconds` of waiting. */
static inline struct kernel_usage kernel_usage_settled(struct kernel_usage before, int seconds)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct kernel_usage now = kernel_usage_now();
	for (int i = 0; i < seconds * 100 && (now.free_bytes != before.free_bytes || now.tasks != before.tasks); i++) {
		nanosleep(&tick, NULL);
		now = kernel_usage_now();
	}
	return now;
}

/* " leaked_pages=N leaked_bytes=N leaked_tasks=N", for a RESULT line: what
 * did not come back (negative: more came back than went). A part of a
 * page counts as a page. */
static inline void print_leaks(struct kernel_usage before, struct kernel_usage after)
{
	long long bytes = before.free_bytes - after.free_bytes;
	long long pages = bytes > 0 ? (bytes + 4095) / 4096 : -((-bytes + 4095) / 4096);
	printf(" leaked_pages=%lld leaked_bytes=%lld leaked_tasks=%ld", pages, bytes, after.tasks - before.tasks);
}
