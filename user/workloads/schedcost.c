/*
 * schedcost - does a context switch cost more with 1000 processes runnable?
 *
 * Two processes pinned to cpu= pass a byte back and forth through two
 * pipes: each pass wakes the receiver and blocks the sender in read(), one
 * context switch. Beside them N other processes sit runnable on the same
 * CPU as SCHED_IDLE hogs, for N = 0, 10, 100 and 1000 (as far as max_tasks
 * allows). Each switch takes the scheduler's decisions with all of them
 * queued: dequeue the sleeper, enqueue the woken one, pick the next. A fair
 * class that keeps its runnable processes in a tree ordered by virtual
 * runtime, with the leftmost cached, does that in O(log n) or less, so the
 * cost barely grows; one that searched a list would grow a hundredfold.
 *
 * This is the part a program can see. The kernel-task version of schedcost
 * timed the fair class's pick, put, enqueue and dequeue themselves, in TSC
 * cycles, on 10 to 10,000 dummy tasks filed on a private runqueue; those
 * class-internal figures stay a kernel test.
 *
 * The hogs are SCHED_IDLE (the smallest weight) so that they take little
 * of the CPU, but they still take some. A switch's cost is therefore the
 * pair's own CPU time (both processes' CPU clocks) per switch, which leaves
 * out the hogs' turns: that time is charged to the hogs. It includes the
 * two pipe calls of each pass. The figure for each N is the median over
 * batches of 100 switches, which leaves out the batch that a tick, an
 * interrupt or a stalled host happened to hit.
 *
 *   switches=S   switches timed at each N, in whole batches  (default 20000)
 *   max_tasks=M  the largest N                               (default 1000)
 *   cpu=C        the CPU of the pair and the hogs            (default 0)
 *
 *   RESULT name=schedcost tasks=N switch_ns=...              (one line per N)
 *   RESULT name=schedcost ratio=... switch_ns=... switches=S
 *
 * ratio = the cost at the largest N / at N = 0, and the last line's
 * switch_ns is the cost at N = 0: two processes alone. The goal is ratio
 * <= 2. A process takes about 100 KB, hence at most 1000 hogs.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BATCH     100                     /* switches, 50 round trips */
#define MAX_TASKS 1000

static const int levels[] = { 0, 10, 100, MAX_TASKS };       /* the N */
#define LEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

enum { SWITCHES, MAX_TASKS_PARAM, CPU, NPARAMS };

static struct param params[NPARAMS] = {
	[SWITCHES]        = { "switches", 20000, BATCH, 10000000, "switches timed at each N" },
	[MAX_TASKS_PARAM] = { "max_tasks", MAX_TASKS, 0, MAX_TASKS, "the largest N of 0, 10, 100, 1000" },
	[CPU]             = { "cpu", 0, 0, MAX_CPU, "the CPU of the pair and the hogs" },
};

/* musl's sched_setscheduler() only says ENOSYS (POSIX means the process,
 * Linux the thread), hence the system call itself. */
static void idle_hog(void *counter)
{
	struct sched_param none = { .sched_priority = 0 };
	if (syscall(SYS_sched_setscheduler, 0, SCHED_IDLE, &none) != 0)
		die_errno("sched_setscheduler(SCHED_IDLE)");
	hog(counter);
}

/* The pair: the driver passes the byte to the echo, which passes it back. */
struct pair {
	int to_echo[2], to_driver[2];     /* [0] is read, [1] is write */
	pid_t echo;
	long batches;
	uint64_t *ns_per_switch;          /* the driver's median, in shared memory */
};

/* Two switches: to the echo and back. */
static void round_trip(const struct pair *p)
{
	char byte = 'b';
	if (write(p->to_echo[1], &byte, 1) != 1)
		die_errno("write the byte");
	if (read(p->to_driver[0], &byte, 1) != 1)
		die_errno("read the byte");
}

/* Pass the byte back every time it arrives, until the driver is done. */
static void echo(void *arg)
{
	const struct pair *p = arg;
	close(p->to_echo[1]);             /* else our own copy keeps the pipe open */
	close(p->to_driver[0]);
	char byte;
	while (read(p->to_echo[0], &byte, 1) == 1)
		if (write(p->to_driver[1], &byte, 1) != 1)
			die_errno("write the byte");
}

static uint64_t pair_cpu_ns(const struct pair *p)
{
	return thread_cpu_ns() + process_cpu_ns(p->echo);
}

/* One untimed batch to settle, then the timed ones; exiting closes our
 * end, and the echo, reading end of file, exits too. */
static void driver(void *arg)
{
	const struct pair *p = arg;
	close(p->to_echo[0]);
	close(p->to_driver[1]);
	uint64_t *cost = malloc((size_t)p->batches * sizeof(*cost));
	if (!cost)
		die("out of memory for %ld batches", p->batches);
	for (long b = -1; b < p->batches; b++) {
		uint64_t start = pair_cpu_ns(p);
		for (int i = 0; i < BATCH / 2; i++)
			round_trip(p);
		if (b >= 0)
			cost[b] = (pair_cpu_ns(p) - start) / BATCH;
	}
	sort_u64(cost, (size_t)p->batches);
	*p->ns_per_switch = percentile(cost, (size_t)p->batches, 50);
}

/* A fresh pair on cpu: ns per switch. */
static uint64_t time_switches(int cpu, long switches)
{
	struct pair p = { .batches = switches / BATCH };
	p.ns_per_switch = shared_alloc(sizeof(*p.ns_per_switch));
	if (pipe(p.to_echo) != 0 || pipe(p.to_driver) != 0)
		die_errno("pipe");
	p.echo = spawn(echo, &p, cpu, 0, NULL);
	pid_t driver_pid = spawn(driver, &p, cpu, 0, NULL);
	for (int i = 0; i < 2; i++) {
		close(p.to_echo[i]);
		close(p.to_driver[i]);
	}
	reap_child(driver_pid);
	reap_child(p.echo);
	return *p.ns_per_switch;
}

int main(int argc, char **argv)
{
	params_parse("schedcost", "ns per context switch with 0, 10, 100, 1000 idle hogs on the CPU",
		     argc, argv, params, NPARAMS);
	int cpu = (int)params[CPU].value, max_tasks = (int)params[MAX_TASKS_PARAM].value;
	long switches = params[SWITCHES].value;
	check_cpu("cpu", cpu);
	/* Fork from another CPU, so that we do not compete with the pair. */
	int ncpus = online_cpus();
	pin_to_cpu(ncpus > 1 ? (cpu + 1) % ncpus : -1);

	static pid_t hogs[MAX_TASKS];
	static struct counter uncounted;  /* each hog bumps its own copy */
	uint64_t cost[LEVELS];
	int level = 0, running = 0;
	for (; level < LEVELS && levels[level] <= max_tasks; level++) {
		for (; running < levels[level]; running++)
			hogs[running] = spawn(idle_hog, &uncounted, cpu, 0, NULL);
		cost[level] = time_switches(cpu, switches);
		result_begin();
		result_add("tasks=%d switch_ns=%lu", running, (unsigned long)cost[level]);
		result_end();
	}
	stop_children(hogs, running);

	result_begin();
	result_add("ratio=%.2f switch_ns=%lu switches=%ld", (double)cost[level - 1] / (double)cost[0],
		   (unsigned long)cost[0], switches / BATCH * BATCH);
	result_end();
	return 0;
}
