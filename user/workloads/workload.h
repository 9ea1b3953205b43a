/*
 * What the workload programs share. Each workload is one ordinary Linux
 * program (user/workloads/NAME.c, linked with this file's workload.c):
 * it runs on leftmost and, the very same binary, on Linux, which is how
 * `make bench` compares the two kernels.
 *
 * A workload takes key=value words, measures one thing and prints one line
 *
 *     RESULT name=<workload> key=value ...
 *
 * A bad word prints the usage with every key's range and exits 2; a
 * failure prints "<workload>: why" on stderr and exits 1.
 *
 * The helpers here use only what both kernels offer: fork, pipes, waitpid,
 * kill, MAP_SHARED memory, clock_gettime (also of another process's CPU
 * clock), clock_nanosleep, sched_setaffinity, setpriority and
 * sched_setscheduler.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One key=value parameter: value holds the default until params_parse(). */
struct param {
	const char *key;
	long value;
	long min, max;
	const char *help;
};

/* Fills params from argv (every word must be key=value with a known key and
 * a value in range); otherwise prints the usage and exits 2. Also remembers
 * name for die() and the RESULT line. */
void params_parse(const char *name, const char *about, int argc, char **argv,
		  struct param *params, int n);

/* "<workload>: message" (die_errno adds strerror(errno)) on stderr, and
 * exit 1. In a child, the parent sees the failure in its wait status. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Time: CLOCK_MONOTONIC in ns, absolute sleeps on it, CPU time in ns. */
uint64_t now_ns(void);
void sleep_until_ns(uint64_t deadline);
void sleep_ms(long ms);
uint64_t thread_cpu_ns(void);                 /* the caller's own CPU time */
uint64_t process_cpu_ns(pid_t pid);           /* any process's, by its CPU clock */
/* Compute until the caller has had ns more CPU time: time spent waiting for
 * the CPU does not count, so the work is the same on a busy CPU. */
void burn_cpu_ns(uint64_t ns);
/* The machine's figures so far, from /proc/stat (Linux and leftmost give
 * them alike; 0 where it cannot be read): all CPUs' busy (user, nice,
 * system) and idle time in its clock ticks, and task switches (ctxt). */
struct machine_stat {
	uint64_t busy, idle, switches;
};
struct machine_stat machine_stat_now(void);

/* CPUs and priorities. cpu -1 means "leave it free" throughout. */
#define MAX_CPU 1023                          /* the highest CPU a cpu_set_t names */
int online_cpus(void);
void check_cpu(const char *key, long cpu);    /* die unless -1 or online */
void pin_to_cpu(int cpu);
void set_nice(int nice);
void set_fifo(int priority);                  /* SCHED_FIFO at priority (1..99) */
bool try_fifo(int priority);                  /* the same, false (errno set) if refused */

/* Memory that the parent and its forked children keep sharing, zeroed. */
void *shared_alloc(size_t size);

/* A counter alone on its cache line: hogs on different CPUs that bump their
 * own counters do not slow each other down (false sharing). */
struct counter {
	volatile uint64_t n;
} __attribute__((aligned(64)));

/*
 * Children. spawn() forks one that dies with its parent (so a workload
 * killed from outside leaves nothing running), pins itself to cpu, sets
 * its nice level, waits for the start gate to open, runs body(arg) and
 * exits 0. The gate lets the parent create every child first and then
 * release them together. stop_children() kills and reaps them.
 */
struct gate {
	int fd[2];
};
void gate_init(struct gate *g);
void gate_open(struct gate *g);
pid_t spawn(void (*body)(void *arg), void *arg, int cpu, int nice, struct gate *g);
void hog(void *counter);                      /* a body: counts loop iterations forever */
void stop_children(const pid_t *pids, int n); /* keeps errno, for a die_errno() after it */
/* Wait for a child to exit 0 by itself; die otherwise. */
void reap_child(pid_t pid);
/* Fork a child that exits 0 at once, and reap it: a process's whole life. */
void fork_and_reap(void);

/* What n children did in the next ms milliseconds: how far each one's
 * counter went and, unless cpu_ns is NULL, the CPU time each was charged.
 * Returns the interval as it really was, in ns. Dies, after stopping them
 * all, if one of them has exited (its figures would mean nothing). */
uint64_t measure_children(const pid_t *pids, const struct counter *counters, int n, long ms,
			  uint64_t *counts, uint64_t *cpu_ns);

/*
 * Call op(arg) warmup times untimed, then count (>= 1) times timed, or
 * fewer once max_ms have passed: the clock is read every check_every calls
 * only, to keep its cost out of the figure. Returns the timed calls made,
 * and their time in *elapsed_ns. op dies if it fails.
 */
long repeat_timed(void (*op)(void *arg), void *arg, long warmup, long count, long max_ms,
		  long check_every, uint64_t *elapsed_ns);

/* share_i = amount_i / the sum of all n; false (and no shares) if it is 0. */
bool shares_of_sum(const uint64_t *amount, int n, double *share);
/* The largest relative deviation |value_i - ideal_i| / ideal_i. */
double max_deviation(const double *value, const double *ideal, int n);

/* Sort ascending, then the p-th percentile (0 < p <= 100, nearest rank). */
void sort_u64(uint64_t *v, size_t n);
uint64_t percentile(const uint64_t *sorted, size_t n, double p);

/* CFS's load weight of a nice level (1024 at nice 0). */
unsigned nice_to_weight(int nice);

/* The RESULT line, built in pieces and written at once, so that no other
 * process's output lands inside it: result_add() appends " fmt...". */
void result_begin(void);                      /* "RESULT name=<workload>" */
void result_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void result_list(const char *key, const double *v, int n, int decimals);  /* key=a,b,c */
void result_end(void);
