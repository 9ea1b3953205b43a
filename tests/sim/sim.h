/*
 * A discrete-event simulator for sched/: simulated CPUs, a simulated clock
 * in nanoseconds, and tasks that alternate between running for a while and
 * sleeping for a while. It implements sched/platform.h, so the real
 * scheduler core and classes run unchanged inside it; the tests then check
 * exact properties (shares, orders, counts) that real hardware could only
 * approximate.
 *
 * Time moves from event to event: a CPU's tick (every 1/HZ), a timer, or the
 * end of the running task's burst. A context switch is bookkeeping: the
 * simulated CPU just starts "running" the next task.
 */
#ifndef TESTS_SIM_SIM_H
#define TESTS_SIM_SIM_H

#include <stdint.h>
#include <stdbool.h>
#include "sched/sched.h"
#include "sched/core.h"
#include "lib/time_units.h"

#define SIM_MAX_TASKS 128

/* Each normal class of sched/select.c's table, by name: cfs, sd, o1, and
 * rr (tests/sim/rr_class.c). The tests that every class must pass, its
 * contract, run on each: a class added to the table is tested with no
 * test edited. */
#define sim_for_each_class(name) for (int name##_at = 0; ((name) = sched_name(name##_at)) != NULL; name##_at++)
#define SIM_MS NS_PER_MS
#define SIM_S  NS_PER_S
#define SIM_LATENCY_STEP    10000ULL      /* 10 us buckets ... */
#define SIM_LATENCY_BUCKETS 2000          /* ... up to 20 ms (the last one holds the rest) */

struct sim_task {
	struct task task;
	uint64_t run_ns;              /* each burst of work; 0 with sleep_ns 0: a hog */
	uint64_t sleep_ns;            /* sleep after each burst; 0: never sleeps */
	uint64_t burst_left;          /* of the current burst */
	struct timer wake_timer;
	/* What the tests read. */
	uint64_t woken_at;            /* when it was last woken */
	uint64_t wakeups, wake_latency_sum, wake_latency_max;
	uint64_t first_run_at;        /* sim time of its first switch-in; 0 until then */
	uint32_t latency_hist[SIM_LATENCY_BUCKETS];   /* wake-up to switch-in, SIM_LATENCY_STEP each */
	uint64_t period_ns;           /* sim_periodic(): wakes at multiples of this; 0: sleeps sleep_ns */
	uint64_t next_deadline;
	/* In a ring (sim_ring): after each burst it hands the token on, waking
	 * the next member, and sleeps until the token comes back. */
	struct sim_task *passes_to;
	bool holds_token;
};

/* A fresh machine with ncpus CPUs ticking at hz, every tunable at its
 * default, scheduling normal tasks with CFS ... */
void sim_reset(int ncpus, int hz);
/* ... or with the class sched=`sched` names (cfs, sd, o1). */
void sim_reset_sched(int ncpus, int hz, const char *sched);

/* A task (not yet started): a hog if run_ns == 0 and sleep_ns == 0. */
struct sim_task *sim_task(const char *name, uint64_t run_ns, uint64_t sleep_ns);
/* A hog created by parent (not yet started): its scheduling is parent's, as a fork's. */
struct sim_task *sim_fork(struct sim_task *parent, const char *name);
/* A task that runs run_ns of work every period_ns, woken at absolute
 * multiples of the period (as the wakeup workload's sleeper). */
struct sim_task *sim_periodic(const char *name, uint64_t run_ns, uint64_t period_ns);
/* The pct-th percentile of t's wake-up latencies, to SIM_LATENCY_STEP. */
uint64_t sim_latency_percentile(const struct sim_task *t, double pct);
void sim_set_policy(struct sim_task *t, int policy, int rt_priority, int nice);
void sim_set_affinity(struct sim_task *t, cpumask_t mask);
void sim_start(struct sim_task *t, int on_cpu);   /* as if created by a task on on_cpu */
void sim_exit(struct sim_task *t);                /* it is running: it ends, for good */
/* Start n tasks as a ring passing one token (ring-test): each runs run_ns
 * when it gets the token, then wakes the next and sleeps. */
void sim_ring(struct sim_task **t, int n, int on_cpu);

void sim_run(uint64_t ns);                        /* advance simulated time */
/* The whole machine stands still for ns (a host that does not run its
 * emulator): the clock jumps, and the ticks and timers that fell due
 * meanwhile come at once, late. */
void sim_stall(uint64_t ns);
/* Advance to cpu's next tick and through it: its running task is then
 * charged up to now, so its runqueue's numbers are current. */
void sim_run_through_tick(int cpu);
uint64_t sim_now(void);
struct rq *sim_rq(int cpu);
uint64_t sim_runtime(const struct sim_task *t);   /* CPU time received so far */
int sim_switches(int cpu);

/* From now on every CPU ticks at the same instants, as the kernel's ticks
 * do once nohz has restarted them on the period grid (kernel/time/tick.c). */
void sim_align_ticks(void);
/* nohz: from now on an idle CPU with nothing queued takes no ticks (as the
 * kernel's nohz=on); its tick resumes once it has work. */
void sim_set_nohz(bool on);
/* Is the CPU's current code allowed to switch? Interrupt handlers (ticks,
 * timers) run with interrupts off, tasks with them on. */
bool sim_irqs_off(int cpu);

/* Every task must be running, queued, or have a wake-up registered (a
 * pending timer or a wait queue): false, and why, naming the first that
 * is none of these. sim_run() checks it after every event. */
bool sim_check_no_task_lost(char *why, size_t len);

/* Set a tunable by name (kernel/sysctl.h); aborts the test on failure. */
void sim_sysctl(const char *name, int64_t value);
int64_t sim_sysctl_get(const char *name);

/* Run fn, expecting it to hit sched_bug() (a broken contract, say): true if
 * it did, with the bug's message in msg. The machine is then left as the bug
 * found it: only sim_reset() may follow. */
bool sim_catch_bug(void (*fn)(void), char *msg, size_t len);

/* The next `tries` spin_trylock()s of lock fail, as if another CPU held it. */
void sim_fail_trylocks(struct spinlock *lock, int tries);

/* Run code "on" a CPU: sched_this_cpu() answers cpu meanwhile. */
void sim_on_cpu(int cpu);

/* The trace points (sched/trace.h): from sim_trace_start() on, the switches
 * are kept, up to SIM_TRACE_MAX (then sim_trace() reports an overflow). */
#define SIM_TRACE_MAX 65536
struct sim_switch {
	uint64_t ts;
	int cpu;
	const struct task *prev, *next;
};
void sim_trace_start(void);
/* The switches kept; *overflow is set if some were not. */
int sim_trace(const struct sim_switch **log, bool *overflow);

#endif
