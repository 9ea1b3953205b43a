/*
 * What the workloads in user/ share: crews of worker tasks that run until
 * told to stop, pinning, sleeping to a deadline, integer arithmetic for
 * shares and ratios, and the RESULT line.
 *
 * The workloads reproduce the Linux programs in ../shared/peer/workloads.
 * Those fork processes that count in shared memory and are killed at the
 * end; here the workers are kernel tasks that count in a struct counter, and
 * the end is a stop flag they check, then a join. A workload leaves nothing
 * running behind it, so the next one in a run= list starts on a quiet machine.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "sched/task.h"
#include "lib/time_units.h"

#define PPB 1000000000ULL       /* fractions are computed in parts per billion */

/* A counter alone on its cache line: workers on different CPUs that each
 * bump their own do not slow each other down (false sharing). */
struct counter {
	volatile uint64_t n;
} __attribute__((aligned(64)));

struct crew;

struct worker {
	struct counter count;             /* what the body counts: iterations, rounds */
	struct task *task;
	struct crew *crew;
};

/* n tasks running the same body. Created, not started, so the caller can pin
 * them or set their nice level first; crew_start() then releases them
 * together (the start gate of the Linux programs). */
struct crew {
	struct worker *workers;           /* 64-byte aligned, inside mem */
	void *mem;
	int n;                            /* tasks created */
	bool started;
	volatile bool stop;               /* the body returns once it sees this */
	void (*body)(struct worker *w);
	const void *arg;                  /* for the body */
};

/* 0, or -1 (said why) when out of memory; then nothing is left running. */
int crew_create(struct crew *c, int n, const char *name, void (*body)(struct worker *w), const void *arg);
void crew_start(struct crew *c);
void crew_stop(struct crew *c);       /* stop, join every worker, free */
void crew_counts(const struct crew *c, uint64_t *out);     /* each worker's count */
void crew_runtimes(const struct crew *c, uint64_t *out);   /* each one's CPU time (ns) */
uint64_t crew_total_runtime(const struct crew *c);         /* theirs summed (ns) */

/* A CPU hog: counts loop iterations until its crew is stopped. */
void hog_body(struct worker *w);

/* CPUs: "cpu" parameters take 0..N-1 for an online CPU, -1 for "any". */
int online_cpus(void);
int check_cpu(const char *workload, const char *key, int64_t cpu);   /* 0, or -1 (said why) */
void pin_task(struct task *p, int cpu);      /* before task_start(); -1: leave it free */
cpumask_t pin_self(int cpu);                 /* -1: stay; returns the mask to restore */
void restore_affinity(cpumask_t mask);

void sleep_ms(uint64_t ms);
void sleep_until(uint64_t deadline);         /* an absolute clock_ns() time */
/* A periodic task's step: sleep to *deadline + period, the next deadline, and
 * return how late we woke (ns). A wake-up later than a whole period skips the
 * deadlines it missed instead of bunching up behind them. */
uint64_t sleep_period(uint64_t *deadline, uint64_t period);

/* Compute until the calling task has had ns more of CPU time: time spent
 * preempted does not count, so "work" is the same on a busy CPU. */
void burn_cpu_ns(uint64_t ns);

/*
 * A latency probe: a task that wakes every period at absolute deadlines and
 * records how late each wake-up was, standing for an interactive task (an
 * editor, a mouse pointer) next to a workload. probe_stop() joins it;
 * probe_report() adds probe_p50_us, probe_p99_us, probe_max_us and
 * probe_samples to a RESULT line and frees the samples.
 */
struct probe {
	struct task *task;
	uint64_t period;                  /* ns */
	uint64_t *late;                   /* ns, one per wake-up while there is room */
	int64_t room, n;
	uint64_t max;                     /* the latest wake-up, also once late[] is full */
	volatile bool stop;
};
/* 0, or -1 (said why); room for ms of samples. cpu -1: not pinned. */
int probe_start(struct probe *pr, int cpu, uint64_t period_ns, uint64_t ms);
void probe_stop(struct probe *pr);

/*
 * Repeat op(arg) `warmup` times untimed, then up to `count` times timed, or
 * fewer once max_ms have passed (the clock is read every check_every calls,
 * to keep its cost out of the figure). Returns the timed calls made, with
 * their time in *elapsed; -1 if op failed (returned < 0).
 */
int64_t repeat_timed(int (*op)(void *arg), void *arg, int64_t warmup, int64_t count, int64_t max_ms,
		     int check_every, uint64_t *elapsed);

/* Integer arithmetic, rounded to nearest (no floating point in the kernel). */
uint64_t div_round(uint64_t a, uint64_t b);
uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c);       /* a * b / c, 128-bit product */
uint64_t deviation(uint64_t value, uint64_t ideal, uint64_t unit);   /* |value - ideal| / ideal, in 1/unit */

/* A RESULT line, built key by key, printed whole. Fixed-point values are
 * integers in units of 10^-decimals: 2500 with 4 decimals prints 0.2500. */
struct result {
	char text[480];                   /* fits one log line (printk's 512) */
	size_t len;
};
void result_begin(struct result *r, const char *workload);          /* "RESULT name=workload" */
void result_add(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void result_fixed(struct result *r, const char *key, uint64_t value, int decimals);
void result_fixed_list(struct result *r, const char *key, const uint64_t *values, int n, int decimals);
void result_ratio(struct result *r, const char *key, uint64_t num, uint64_t den, int decimals);   /* "inf" if den is 0 */
void result_print(const struct result *r);
void result_us(struct result *r, const char *key, uint64_t ns);     /* ns as us, to 1 decimal */
/* The p-th percentile (nearest rank) of n >= 1 sorted values. */
uint64_t percentile(const uint64_t *sorted, int64_t n, int64_t p);
void probe_report(struct probe *pr, struct result *r);
