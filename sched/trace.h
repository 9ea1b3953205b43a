/*
 * Scheduler trace points: part of the platform boundary (sched/platform.h).
 * sched/ says what happened; the platform records it. The kernel keeps
 * per-CPU ring buffers (kernel/debug/trace_buffer.c) and prints them as ftrace
 * text, each event in the words trace_format() gives it (sched/trace_format.c,
 * docs/tracing.md); the host simulator keeps the switches so a test can
 * check that they pair up (tests/sim/).
 *
 * Cost when tracing is off: one load of trace_on and a branch predicted
 * not taken (the record function is never called).
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sched/task.h"

struct task;

/* What each event means, and what its x and y carry. */
enum trace_type {
	TRACE_SWITCH,          /* a (prev) -> b (next); x: enum trace_prev_state */
	TRACE_WAKING,          /* a is being woken; x: the CPU it last ran on */
	TRACE_WAKEUP,          /* a is queued, runnable; x: its CPU */
	TRACE_WAKEUP_NEW,      /* a new task is queued; x: its CPU */
	TRACE_MIGRATE,         /* a moves; x: from CPU, y: to CPU */
	TRACE_FAIR_ENQUEUE,    /* a enters the timeline; x: its key (vruntime), y: fair_clock */
	TRACE_FAIR_DEQUEUE,    /* a leaves it; x, y: as enqueue */
	TRACE_TICK_PREEMPT,    /* the tick asks a to give way; x: ns ahead of the leftmost (fair), y: enum trace_tick_reason */
	TRACE_RT_THROTTLE,     /* this CPU's RT tasks used their budget; x: RT ns this period, y: the budget */
	TRACE_RT_UNTHROTTLE,   /* a new period: RT tasks may run again */
	TRACE_EXIT,            /* a has switched away for the last time; x: its total CPU ns (sum_exec_runtime) */
	TRACE_IDLE_BALANCE,    /* this CPU, left with nothing to run, looks for tasks to pull; x: from CPU */
	TRACE_PUSH,            /* the balancer asks running task a to move at its next switch; x: from CPU, y: to CPU */
	TRACE_ROTATION,        /* SD or O(1) moves tasks between lists; x: enum trace_rotation, y: the slot or prio
	                          a lands at (a major rotation: its number); a: the task (NULL for a whole level) */
};

enum trace_prev_state { TRACE_PREV_RUNNABLE, TRACE_PREV_PREEMPTED, TRACE_PREV_SLEEPING, TRACE_PREV_DEAD };
enum trace_tick_reason { TRACE_TICK_FAIR, TRACE_TICK_RR_SLICE, TRACE_TICK_SLICE /* SD quota, O(1) timeslice */ };
enum trace_rotation {
	TRACE_ROTATE_TASK,     /* SD: a used its quota at a slot and steps down */
	TRACE_ROTATE_EXPIRE,   /* a goes to the expired array */
	TRACE_ROTATE_REINSERT, /* O(1): a used its timeslice but is interactive: back into the active array */
	TRACE_ROTATE_LEVEL,    /* SD: a slot's quota is used up; it closes */
	TRACE_ROTATE_MAJOR,    /* the arrays swap */
};

/* The platform's switch and recorder: ts in ns of sched_clock(). */
extern bool trace_on;
void trace_record(enum trace_type type, uint64_t ts, const struct task *a, const struct task *b,
		  int64_t x, int64_t y);

static inline void trace_sched(enum trace_type type, uint64_t ts, const struct task *a, const struct task *b,
			       int64_t x, int64_t y)
{
	if (__builtin_expect(__atomic_load_n(&trace_on, __ATOMIC_RELAXED), 0))
		trace_record(type, ts, a, b, x, y);
}

/* A task as a record keeps it: a copy, so that a task that has exited since
 * is still named right when the trace is printed. */
struct trace_task {
	int32_t pid;
	int32_t prio;
	char comm[TASK_NAME_LEN];
};

/* An event's text, what ftrace writes after the FUNCTION column (sched/trace_format.c):
 * a and b are the tasks the event names, cpu the CPU it happened on. */
void trace_format(char *buf, size_t len, uint32_t type, int64_t x, int64_t y, const struct trace_task *a,
		  const struct trace_task *b, int cpu);
