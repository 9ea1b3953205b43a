/*
 * The modular scheduler core's interface: the per-CPU runqueue and the
 * scheduling classes. The core (sched/core.c) knows each class only through
 * struct sched_class; a class knows no other class. The classes, in priority
 * order: RT (sched/rt.c), fair (sched/fair.c), idle (sched/idle.c).
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "sched/task.h"
#include "sched/platform.h"
#include "lib/rbtree.h"
#include "lib/list.h"
#include "sched/prio_array.h"
#include "sched/watchdog.h"

/*
 * Who writes what: every field of a runqueue, its class parts included, is
 * written only with rq->lock held, unless its comment says otherwise.
 */

/* The fair class's part of a runqueue: the timeline. */
struct cfs_rq {
	struct rb_root_cached timeline;   /* queued fair tasks by vruntime; the running one is not in it */
	uint64_t fair_clock;              /* the runqueue's fair position: never decreases, follows the
	                                     smallest vruntime (2.6.24's min_vruntime) */
	unsigned nr_running;              /* fair tasks queued, the running one included */
	uint64_t load;                    /* sum of their weights */
	struct task *curr;                /* the fair task running now, or NULL */
	struct rb_node *balance_next;     /* load_balance_next's position */
};

/* The RT class's part: a queue per priority and a bitmap of the non-empty ones. */
struct rt_rq {
	uint64_t bitmap[2];               /* bit p set: queue[p] is not empty */
	struct list_node queue[MAX_RT_PRIO];
	unsigned nr_running;
	uint64_t rt_time;                 /* ns RT tasks ran in this throttling period */
	uint64_t period_start;            /* rq clock when this period began */
	bool throttled;                   /* used up its runtime: not picked until the period ends */
	int balance_prio;                 /* load_balance_next's position */
	struct list_node *balance_next;
};

/*
 * Staircase Deadline's part (sched/sd.c): two arrays of 40 priority
 * slots, and what is left of each slot's quota in this major rotation.
 */
struct sd_rq {
	struct prio_array arrays[2];
	struct prio_array *active, *expired;
	uint64_t slot_quota[PRIO_LEVELS]; /* ns each slot may still run in this major rotation: the
	                                     quotas its queued tasks brought (level quota) */
	uint64_t expired_quota[PRIO_LEVELS];   /* the same, brought by expired tasks, for the next one */
	int slot;                         /* the staircase: slots above it are closed until the next
	                                     major rotation */
	uint64_t prio_rotation;           /* major rotations so far, from 1 */
	unsigned nr_running;              /* its tasks queued here, the running one included */
	struct prio_walk balance;         /* load_balance_next's position */
};

/* The O(1) scheduler's part (sched/o1.c): two arrays of 40 priority lists. */
struct o1_rq {
	struct prio_array arrays[2];
	struct prio_array *active, *expired;
	uint64_t expired_timestamp;       /* rq clock when the first task of this round expired; 0: none */
	int best_expired_prio;            /* the best static_prio in the expired array (MAX_PRIO: none) */
	unsigned nr_running;              /* its tasks queued here, the running one included */
	struct prio_walk balance;         /* load_balance_next's position */
};

struct rq {
	struct spinlock lock;
	char lock_name[8];                /* "rq3", for messages: set once, by rq_init() */
	int cpu;                          /* set once, by rq_init() */
	/*
	 * Peeked at by other CPUs without the lock (a hint, which may change at
	 * once) to place a waking task or choose whom to balance with: so
	 * written with rq_set() and read without the lock with rq_peek().
	 */
	unsigned nr_running;              /* tasks queued in any class (running counts; idle does not) */
	uint64_t load;                    /* their weights summed: what balancing compares */
	struct task *curr;                /* running now, changed only by this CPU: dereference only
	                                     with the lock held (it may exit and be freed) */
	int curr_prio;                    /* curr's prio and CPU time so far, copied under the lock for */
	uint64_t curr_runtime;            /* other CPUs to read without it (updated at switch and tick) */

	uint64_t clock;                   /* ns, sched_clock() at the last update_rq_clock() */
	struct task *idle;                /* this CPU's idle task: set once, by sched_init_idle() */
	/*
	 * The normal class's part. One normal class runs on a machine
	 * (sched/select.c), so their parts share the space: only the chosen
	 * one's init_rq is called, and only it may touch its member.
	 */
	union {
		struct cfs_rq cfs;
		struct sd_rq sd;
		struct o1_rq o1;
	};
	struct rt_rq rt;
	bool resched_ipi;                 /* resched_curr() owes this CPU an IPI: rq_unlock() sends it */
	uint64_t nr_switches;             /* rq_set(): /proc/stat's sum reads it without the lock */
	uint64_t curr_since;              /* clock when curr was switched in */
	/* Linux's schedstat counters (/proc/schedstat), under the lock. */
	struct {
		uint64_t yld_count;       /* sched_yield() calls */
		uint64_t sched_count;     /* schedule() calls */
		uint64_t sched_goidle;    /* ... that left the CPU idle */
		uint64_t ttwu_count;      /* wake-ups of a task onto this runqueue */
		uint64_t ttwu_local;      /* ... by a task of this CPU */
		uint64_t rq_cpu_time;     /* ns that tasks (not idle) ran here */
		uint64_t run_delay;       /* ns that tasks waited here to run */
		uint64_t pcount;          /* tasks switched in here */
	} schedstat;
	uint64_t next_balance;            /* clock at which the tick balances next: only this CPU */
	uint64_t next_kick;               /* clock before which it wakes no idle CPU: only this CPU */
	struct watchdog watchdog;         /* the soft-lockup watchdog's (sched/watchdog.c) */
};

/* The fields of struct rq that other CPUs peek at (see there). */
#define rq_set(rq, field, value) __atomic_store_n(&(rq)->field, (value), __ATOMIC_RELAXED)
#define rq_peek(rq, field) __atomic_load_n(&(rq)->field, __ATOMIC_RELAXED)

/* flags for enqueue_task and dequeue_task */
enum {
	ENQUEUE_WAKEUP   = 1,             /* it was sleeping (not: new, or moved here) */
	ENQUEUE_MIGRATED = 2,             /* it comes from another runqueue */
	DEQUEUE_SLEEP    = 1,             /* it is going to sleep */
	DEQUEUE_MIGRATE  = 2,             /* it is moving to another runqueue */
};

/*
 * A scheduling class: the seed's method list. Every method but init_rq and
 * task_dead is called with rq->lock held: the core takes the lock in the
 * function that calls the method, or asserts it is held (assert_held) where
 * its caller took it. init_rq runs before anyone can use the runqueue;
 * task_dead runs after the dead task's runqueue lock is let go.
 */
struct sched_class {
	const char *name;

	/* p became runnable: file it. */
	void (*enqueue_task)(struct rq *rq, struct task *p, int flags);
	/* p stops being runnable (or moves away): unfile it. */
	void (*dequeue_task)(struct rq *rq, struct task *p, int flags);
	/* sched_yield(): p goes behind every task of its class that is as urgent. */
	void (*requeue_task)(struct rq *rq, struct task *p);
	/* A new task's first placement (child-runs-first lives here); also enqueues it. */
	void (*task_new)(struct rq *rq, struct task *p);
	/* (Re)initialise p's class data from its policy and priority: new task, or renice. */
	void (*task_init)(struct rq *rq, struct task *p);
	/* The timer tick, while p is running: account, and maybe ask for a switch. */
	void (*task_tick)(struct rq *rq, struct task *p);
	/* p just became runnable here: should it preempt rq->curr? */
	void (*check_preempt_curr)(struct rq *rq, struct task *p);
	/* The class's most entitled task, now running (taken off its queue), or NULL. */
	struct task *(*pick_next_task)(struct rq *rq);
	/* p stops running but stays runnable (or is about to sleep): re-file it. */
	void (*put_prev_task)(struct rq *rq, struct task *p);
	/* The balancer's iterator over the tasks it may move: queued, not running. */
	struct task *(*load_balance_start)(struct rq *rq);
	struct task *(*load_balance_next)(struct rq *rq);

	/*
	 * Added to the seed's list (2.6.23 added it too): after a policy or nice
	 * change of the running task, which the core makes by put_prev_task,
	 * dequeue, change, enqueue, this tells the class that rq->curr, now
	 * queued in it, is its running task again (as pick_next_task would).
	 */
	void (*set_curr_task)(struct rq *rq);

	/*
	 * Added to the seed's list, because a class needs it: called on every
	 * tick whatever runs. RT throttling must notice that its period ended
	 * even while a fair task runs, or throttled RT tasks would wait for the
	 * fair task to be preempted first. NULL if the class needs no such tick.
	 */
	void (*rq_tick)(struct rq *rq);

	/*
	 * Added to the seed's list, so that the core knows no class's part of
	 * a runqueue: set up this class's part of a new, empty runqueue (before
	 * anyone can use it: no lock). NULL if the class keeps nothing there.
	 */
	void (*init_rq)(struct rq *rq);

	/*
	 * Added to the seed's list, for sched_rr_get_interval(): how long p
	 * runs before the class would let another of its tasks run (an RR
	 * slice, the fair class's granularity); 0 for none (FIFO). NULL: 0.
	 */
	uint64_t (*get_rr_interval)(struct rq *rq, struct task *p);

	/*
	 * Added to the seed's list, for O(1)'s sched_exit (the 2.6 kernels before
	 * CFS had it in the core): p has switched away for the last time, dead.
	 * Called with no lock held, before p is freed. NULL: nothing to do.
	 */
	void (*task_dead)(struct task *p);

	/*
	 * Added for /proc/sched_debug (sched/debug.c), which knows no class's
	 * part of a runqueue: debug_rq writes that part as "  .name : value"
	 * lines, each ending in a newline; debug_task writes what a task's row
	 * shows of its place in the class (its key on CFS's timeline, its slot
	 * and quota on SD's staircase), as columns of debug_task_header. NULL:
	 * nothing to show.
	 */
	void (*debug_rq)(struct rq *rq, char *buf, size_t len);
	void (*debug_task)(const struct rq *rq, const struct task *p, char *buf, size_t len);
	const char *debug_task_header;
};

extern const struct sched_class rt_sched_class, idle_sched_class;
extern const struct sched_class fair_sched_class, sd_sched_class, o1_sched_class;   /* the normal classes */

/*
 * The class list, most urgent first, then NULL. The seed chains the classes
 * through a next pointer fixed when the kernel is built; here the middle
 * one is chosen at boot, so the core keeps the list (sched/select.c).
 */
#define NR_SCHED_CLASSES 3            /* RT, the normal class, idle */
extern const struct sched_class *sched_classes[NR_SCHED_CLASSES + 1];
#define sched_class_highest (sched_classes[0])
#define normal_sched_class (sched_classes[1])
#define for_each_class(c) for (int c##_at = 0; ((c) = sched_classes[c##_at]) != NULL; c##_at++)

/* What the core offers the classes. */
struct rq *cpu_rq(int cpu);
void resched_curr(struct rq *rq);       /* ask rq's CPU to call schedule() soon */

/* The weight of each nice level, and 2^32 / weight (sched/core.c). */
extern const uint32_t sched_prio_to_weight[40];
extern const uint32_t sched_prio_to_wmult[40];
#define NICE_0_WEIGHT 1024
#define RT_LOAD_WEIGHT (2 * 88761)      /* an RT task counts as twice nice -20 for balancing */
#define IDLE_POLICY_WEIGHT 2            /* SCHED_IDLE: below nice 19 */
