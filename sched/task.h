/*
 * A task: one thread of control with its own kernel stack. This header is
 * the scheduler's view of it plus what kernel/task/kthread.c needs to create, join
 * and reap it; it uses only plain types, so sched/ builds on the host too.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "lib/rbtree.h"
#include "lib/list.h"
#include "kernel/spinlock.h"
#include "kernel/debug/lockdep.h"
#include "sched/wait.h"

#define TASK_NAME_LEN 16

struct timer;
struct process;
struct thread;
struct fpu_state;
struct prio_array;

/* Policies, with Linux's numbers. */
enum {
	SCHED_NORMAL = 0,         /* the fair class */
	SCHED_FIFO   = 1,         /* RT: runs until it blocks, yields or is preempted */
	SCHED_RR     = 2,         /* RT: FIFO with a time slice among equal priorities */
	SCHED_BATCH  = 3,         /* fair, but never preempts on wake-up */
	SCHED_IDLE   = 5,         /* fair, with the smallest weight */
};

/* Priorities as in Linux: 0..99 RT (lower is more urgent), 100..139 nice -20..19. */
#define MAX_RT_PRIO     100
#define MAX_PRIO        140
#define NICE_TO_PRIO(n) (MAX_RT_PRIO + 20 + (n))
#define PRIO_TO_NICE(p) ((p) - MAX_RT_PRIO - 20)

enum task_state {
	TASK_NEW,                 /* created, not yet woken */
	TASK_RUNNING,             /* runnable: on a runqueue (maybe running) */
	TASK_SLEEPING,            /* blocked, waiting for a wake-up */
	TASK_DEAD,                /* exited, waiting to be joined and reaped */
};

typedef uint64_t cpumask_t;   /* bit n = CPU n; leftmost supports up to 64 CPUs */

/*
 * Who writes what, in struct task and its parts: everything scheduling is
 * written only under the task's runqueue lock (task_rq_lock()), except
 * where a comment says otherwise. Before a task is started, its creator
 * sets it up alone. A few fields are read without any common lock, by other
 * CPUs or the task itself: those are accessed atomically, through the
 * functions below the struct.
 */

/* The fair class's part of a task. */
struct sched_entity {
	struct rb_node run_node;          /* in the runqueue's timeline while queued and not running */
	uint64_t vruntime;                /* the timeline key: virtual runtime, ns weighted by nice */
	uint64_t exec_start;              /* rq clock when its current accounting period started */
	uint64_t sum_exec_runtime;        /* ns of CPU it has had, in all (task_sched_runtime() adds
	                                     the stretch not yet charged) */
	uint64_t prev_sum_exec_runtime;   /* sum_exec_runtime when it was last picked */
	uint32_t weight;                  /* from the nice level: 1024 at nice 0 */
	uint32_t inv_weight;              /* 2^32 / weight, to divide by multiplying */
	uint64_t sleep_start_fair;        /* fair_clock when it fell asleep (2.6.23): its sleep credit */
};

/* The RT class's part. */
struct sched_rt_entity {
	struct list_node run_list;        /* in its priority's queue */
	uint64_t time_slice;              /* SCHED_RR: ns left before rotating */
};

/* Staircase Deadline's part (sched/sd.c). */
struct sd_entity {
	struct list_node run_list;        /* in its slot's list */
	int slot;                         /* 0..39: where on the staircase it stands */
	uint64_t quota;                   /* ns it may still run at this slot */
	uint64_t rotation;                /* the major rotation the slot is in: its runqueue's current
	                                     one, the next (expired), or an older one (start afresh) */
};

/* The O(1) scheduler's part (sched/o1.c). */
struct o1_entity {
	struct list_node run_list;        /* in its priority's list */
	int prio;                         /* dynamic priority, 100..139: static_prio minus the bonus */
	struct prio_array *array;         /* the array it is queued in: its runqueue's active or expired */
	bool expired;                     /* off the queue: it was in the expired array (it goes back
	                                     there if it is queued again without a wake-up) */
	uint64_t time_slice;              /* ns left of its timeslice */
	uint64_t sleep_avg;               /* ns: sleep credited, run time debited; 0..MAX_SLEEP_AVG */
	uint64_t timestamp;               /* rq clock when it last slept, woke or was switched */
	int activated;                    /* woken and not yet run, by a task (1) or an interrupt (2):
	                                     30% or all of its wait on the queue counts as sleep */
	int parent_pid;                   /* the task that created it (0: none), for sched_exit */
	bool first_time_slice;            /* still on the slice its parent split with it */
};

/* The seed's per-task statistics (SCH-* in CFS v2's /proc/<pid>/status). */
struct sched_statistics {
	uint64_t wait_start;              /* rq clock when it became runnable and not running */
	uint64_t sum_wait_runtime;        /* ns spent runnable but waiting */
	uint64_t wait_max;
	uint64_t sleep_start;
	uint64_t sum_sleep_runtime;
	uint64_t nr_switches;             /* times switched in */
	uint64_t nr_migrations;
	uint64_t nr_wakeups;
	uint64_t nr_preemptions;          /* times switched out while still runnable */
};

struct task {
	/* The arch context switch saves everything else on the task's stack. */
	uint64_t saved_rsp;               /* only the context switch */
	void *kstack_top;                 /* set once, before the task runs */

	int pid;                          /* set once, before the task runs */
	char name[TASK_NAME_LEN];         /* set before the task runs; then only by the task itself
	                                     (execve), and a reader may see it half changed */
	int state;                        /* enum task_state: by the task itself (going to sleep, exiting)
	                                     and by its waker under its runqueue lock; atomic:
	                                     task_state(), set_task_state() */

	/* Scheduling: under the task's runqueue lock. */
	const struct sched_class *sched_class;
	int policy;
	int nice;                         /* -20..19 */
	int static_prio;                  /* NICE_TO_PRIO(nice) */
	int rt_priority;                  /* 1..99 for SCHED_FIFO/RR, else 0 */
	bool reset_on_fork;               /* SCHED_RESET_ON_FORK: its children start unprivileged */
	int prio;                         /* effective: 99 - rt_priority for RT, else static_prio */
	cpumask_t cpus_allowed;
	int cpu;                          /* the runqueue it belongs to: changed holding that runqueue's
	                                     lock; atomic, as task_rq_lock() reads it to find the lock:
	                                     task_cpu(), set_task_cpu() */
	bool on_rq;                       /* queued in its class (running counts) */
	bool in_transit;                  /* left its runqueue while running (affinity, push_to): to be
	                                     queued on an allowed CPU once its stack is free */
	cpumask_t push_to;                /* the balancer wants this running task on that CPU (one
	                                     bit; 0: no): it goes there at its next switch */
	bool on_cpu;                      /* executing now, its stack in use: set by the CPU switching to
	                                     it, cleared by the same CPU once it has left; atomic:
	                                     task_on_cpu() */
	struct sched_entity se;
	struct sched_rt_entity rt;
	struct sd_entity sd;
	struct o1_entity o1;
	struct sched_statistics stats;

	/* Preemption: a task may be switched out only when its count is 0. */
	int preempt_count;                /* only the task itself */
	bool need_resched;                /* set under its runqueue lock by whoever wants it to switch,
	                                     cleared by schedule(), read by its CPU at any time; atomic:
	                                     task_need_resched(), set_task_need_resched() */
	bool polling;                     /* an idle task watching need_resched (no IPI needed): only the
	                                     idle task itself; atomic, read by CPUs that wake it */

	/* Life cycle (kernel/task/kthread.c). */
	void (*entry)(void *arg);         /* set once, before the task runs */
	void *arg;                        /* set once, before the task runs */
	int exit_code;                    /* only the task itself, as it exits */
	bool joinable;                    /* someone will join(); else reaped on exit: under exited.lock */
	bool finished;                    /* exited and switched away for good, its stack free: under
	                                     exited.lock; atomic, as a joiner waits for it without it */
	int refcount;                     /* the task is freed when this drops to 0: under the task list lock */
	struct list_node all_tasks;       /* in the list of every task: under the task list lock */
	struct lockdep_task lockdep;       /* the mutexes it holds, for the lock-order checker: only the task */
	struct list_node wait_node;       /* in a wait queue while blocked on it: under that queue's lock */
	struct timer *wake_timer;         /* the timer that will wake it, while it sleeps on one: only the
	                                     task itself */
	struct wait_queue exited;         /* join() sleeps here */

	/* A task that runs a program in ring 3 (kernel/task/process.c); NULL and 0 in a kernel task. */
	struct process *process;          /* its address space, and what else the program's threads
	                                     share: set before the task runs, cleared by the task itself
	                                     as it exits; the switch reads it (kernel/entry/sched_glue.c) */
	struct thread *thread;            /* what its thread has of its own (kernel/task/thread.h): set and
	                                     cleared with `process` */
	uint64_t fs_base;                 /* its FS base (the C library's thread pointer): only the task
	                                     itself (arch_prctl); the switch loads it */
	uint64_t clear_child_tid;         /* set_tid_address(): only the task itself */
	uint64_t start_ns;                /* clock_ns() when it was created: /proc's start time */
	uint64_t user_ticks;              /* the ticks that found it in ring 3 (kernel/time/cputime.c)... */
	uint64_t system_ticks;            /* ...and in the kernel: its CPU's tick; atomic */
	struct spinlock cputime_lock;     /* the split last told: kernel/time/cputime.c */
	uint64_t told_user_ns, told_system_ns;
	bool sigpending;                  /* a signal waits for it (kernel/task/signal/signal.c): interruptible
	                                     sleeps end (sched/wait.h); set by the sender, cleared by
	                                     the task itself; atomic: task_signal_pending() */
	struct fpu_state *fpu;            /* its x87 and SSE registers while switched out: set and freed
	                                     with `process`; in between, only the switch */
};

/* The fields read without the lock they are written under (if any): written
 * only through these, atomically, and read through them wherever that lock
 * is not held. Relaxed: the locks taken around them order everything else. */
static inline int task_state(const struct task *p)
{
	return __atomic_load_n(&p->state, __ATOMIC_RELAXED);
}

static inline void set_task_state(struct task *p, int state)
{
	__atomic_store_n(&p->state, state, __ATOMIC_RELAXED);
}

static inline int task_cpu(const struct task *p)
{
	return __atomic_load_n(&p->cpu, __ATOMIC_RELAXED);
}

static inline void set_task_cpu(struct task *p, int cpu)
{
	__atomic_store_n(&p->cpu, cpu, __ATOMIC_RELAXED);
}

static inline bool task_on_cpu(const struct task *p)
{
	return __atomic_load_n(&p->on_cpu, __ATOMIC_RELAXED);
}

static inline bool task_signal_pending(const struct task *p)
{
	return __atomic_load_n(&p->sigpending, __ATOMIC_RELAXED);
}

static inline bool task_need_resched(const struct task *p)
{
	return __atomic_load_n(&p->need_resched, __ATOMIC_RELAXED);
}

static inline void set_task_need_resched(struct task *p, bool need)
{
	__atomic_store_n(&p->need_resched, need, __ATOMIC_RELAXED);
}

static inline bool task_has_rt_policy(const struct task *p)
{
	return p->policy == SCHED_FIFO || p->policy == SCHED_RR;
}
