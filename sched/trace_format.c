/*
 * The scheduler's words for its trace events: the text of each, in the
 * format of Linux's ftrace, so that its tools (and tools/tracefile.py)
 * read it. The kernel keeps the records and writes each line's head (task,
 * CPU, time: kernel/trace.c); what happened is said here, so an event
 * added to sched/ is worded in sched/. The events and what x and y carry:
 * sched/trace.h.
 */
#include "sched/trace.h"
#include "lib/printf.h"

static const char *const prev_state[] = {
	[TRACE_PREV_RUNNABLE] = "R", [TRACE_PREV_PREEMPTED] = "R+",
	[TRACE_PREV_SLEEPING] = "S", [TRACE_PREV_DEAD] = "X",
};

static const char *const wakeup[] = {
	[TRACE_WAKING] = "sched_waking", [TRACE_WAKEUP] = "sched_wakeup", [TRACE_WAKEUP_NEW] = "sched_wakeup_new",
};

static const char *const rotation[] = {
	[TRACE_ROTATE_TASK] = "task", [TRACE_ROTATE_EXPIRE] = "expire", [TRACE_ROTATE_REINSERT] = "reinsert",
	[TRACE_ROTATE_LEVEL] = "level", [TRACE_ROTATE_MAJOR] = "major",
};

static const char *const tick_reason[] = {
	[TRACE_TICK_FAIR] = "fair", [TRACE_TICK_RR_SLICE] = "rr_slice", [TRACE_TICK_SLICE] = "slice",
};

/* "comm=hog pid=7 prio=120": how most events name their task. */
static int task_words(char *buf, size_t len, const struct trace_task *t)
{
	return snprintf(buf, len, "comm=%s pid=%d prio=%d", t->comm, t->pid, t->prio);
}

/* SD and O(1) move a task between lists, or a whole level (no task). */
static void rotation_words(char *buf, size_t len, const struct trace_task *a, int64_t kind, int64_t at)
{
	bool whole_level = kind == TRACE_ROTATE_LEVEL || kind == TRACE_ROTATE_MAJOR;
	snprintf(buf, len, "sched_rotation: kind=%s comm=%s pid=%d at=%lld", rotation[kind],
		 whole_level ? "-" : a->comm, whole_level ? 0 : a->pid, (long long)at);
}

void trace_format(char *buf, size_t len, uint32_t type, int64_t x, int64_t y, const struct trace_task *a,
		  const struct trace_task *b, int cpu)
{
	char who[TASK_NAME_LEN + 40];
	task_words(who, sizeof(who), a);

	switch (type) {
	case TRACE_SWITCH:
		snprintf(buf, len, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
			 "next_comm=%s next_pid=%d next_prio=%d", a->comm, a->pid, a->prio, prev_state[x],
			 b->comm, b->pid, b->prio);
		break;
	case TRACE_WAKING:
	case TRACE_WAKEUP:
	case TRACE_WAKEUP_NEW:
		snprintf(buf, len, "%s: %s target_cpu=%03lld", wakeup[type], who, (long long)x);
		break;
	case TRACE_MIGRATE:
	case TRACE_PUSH:
		snprintf(buf, len, "%s: %s orig_cpu=%lld dest_cpu=%lld",
			 type == TRACE_MIGRATE ? "sched_migrate_task" : "sched_push_task", who, (long long)x, (long long)y);
		break;
	case TRACE_FAIR_ENQUEUE:
	case TRACE_FAIR_DEQUEUE:
		snprintf(buf, len, "sched_fair_%s: %s key=%llu fair_clock=%llu",
			 type == TRACE_FAIR_ENQUEUE ? "enqueue" : "dequeue", who, (unsigned long long)x,
			 (unsigned long long)y);
		break;
	case TRACE_TICK_PREEMPT:
		if (y == TRACE_TICK_FAIR)
			snprintf(buf, len, "sched_tick_preempt: %s reason=fair ahead_ns=%lld", who, (long long)x);
		else
			snprintf(buf, len, "sched_tick_preempt: %s reason=%s", who, tick_reason[y]);
		break;
	case TRACE_ROTATION:
		rotation_words(buf, len, a, x, y);
		break;
	case TRACE_RT_THROTTLE:
		snprintf(buf, len, "sched_rt_throttle: cpu=%d rt_time_ns=%lld runtime_ns=%lld", cpu, (long long)x,
			 (long long)y);
		break;
	case TRACE_RT_UNTHROTTLE:
		snprintf(buf, len, "sched_rt_unthrottle: cpu=%d", cpu);
		break;
	case TRACE_IDLE_BALANCE:
		snprintf(buf, len, "sched_idle_balance: cpu=%d busiest_cpu=%lld", cpu, (long long)x);
		break;
	case TRACE_EXIT:
		snprintf(buf, len, "sched_process_exit: %s runtime_ns=%lld", who, (long long)x);
		break;
	default:
		snprintf(buf, len, "leftmost_unknown: type=%u", type);
	}
}
