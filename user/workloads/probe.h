/*
 * What fiftyp, thud, chew and ring_test share: the company they put on a
 * CPU (hogs, a latency probe) and microsecond figures on the RESULT line.
 *
 * The probe is a child process standing for an interactive task (an
 * editor, a mouse pointer) next to a workload: it wakes every period at
 * absolute deadlines and records how late each wake-up was. It records in
 * memory it shares with the parent, which reads it after killing it.
 */
#pragma once
#include "workload.h"

struct probe {
	pid_t pid;
	uint64_t period;                  /* ns */
	size_t room;                      /* samples late[] holds */
	volatile size_t n;                /* samples taken */
	volatile uint64_t max;            /* the latest wake-up, also once late[] is full */
	uint64_t late[];                  /* ns, one per wake-up while there is room */
};

/* Spawn the probe on cpu, released by gate g (NULL: at once), with room for
 * ms of samples (at most a million; max still covers them all). */
struct probe *probe_start(int cpu, long period_us, long ms, struct gate *g);
/* Kill and reap it; late[] is then sorted. */
void probe_stop(struct probe *p);
/* probe_p50_us and probe_p99_us (if there are samples), probe_max_us and
 * probe_samples on the RESULT line. */
void probe_report(const struct probe *p);

/* n nice-0 hogs on cpu, behind gate g, their pids into pids[]. With
 * counters, hog i counts in counters[i] (shared memory); without, in
 * nothing anyone reads. */
void spawn_hogs(pid_t *pids, struct counter *counters, int n, int cpu, struct gate *g);

/* key=ns as microseconds, to one decimal, on the RESULT line. */
void result_us(const char *key, uint64_t ns);
