/*
 * The scheduler's public interface: what the rest of the kernel calls. With
 * task.h, wait.h, preempt.h, trace.h, debug.h and check.h it is all that
 * code outside sched/ includes; sched/core.h, sched.h, fair.h and balance.h
 * are sched/'s own.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "sched/task.h"

/* Bringing it up (kernel/task/kthread.c). */
/* The normal tasks' class, by name (cfs, sd, o1; sched/select.c): before
 * sched_init(). -1 if there is no such class. sched= calls it at boot. */
int sched_select(const char *name);
const char *sched_selected(void);                 /* its name */
void sched_list(void);                            /* the choices, on the console */
const char *sched_name(int i);                    /* the i-th choice's name; NULL past the last */
void sched_init(void);                            /* before any runqueue is used */
void sched_init_idle(struct task *idle, int cpu); /* the caller becomes cpu's idle task */
/* A new task's scheduling state: TASK_NEW, on this CPU, with parent's
 * policy, priority, nice and CPUs (SCHED_RESET_ON_FORK: no RT, no negative
 * nice); parent NULL: SCHED_NORMAL, nice 0, every CPU allowed. Set its
 * policy or CPUs after this if you like. */
void sched_fork(struct task *p, struct task *parent);

/* Switching: the interrupt path, the tick, the idle loop, kernel/task/kthread.c. */
void schedule(void);
void preempt_schedule_irq(void);                  /* interrupt return: switch if asked to */
void scheduler_tick(void);                        /* the timer tick, from its interrupt */
bool sched_tick_needed(void);                     /* may this idle CPU stop its tick? no if true */
bool wake_up_process(struct task *p);             /* false if it was not sleeping */
/* p has something to see to at its next entry to the kernel (a signal):
 * if it runs on another CPU now, interrupt it there (Linux's kick_process). */
void sched_kick(struct task *p);
void wake_up_new_task(struct task *p);            /* first wake-up of a TASK_NEW task */
void finish_task_switch(struct task *prev);       /* a new task's first act: prev has left the CPU */

/* ns of CPU p has had so far, the stretch it is running now included. */
uint64_t task_sched_runtime(struct task *p);
/* The fair class's weight for a nice level: 1024 at nice 0, about 1.25
 * times less each level up. */
uint32_t sched_nice_to_weight(int nice);

/*
 * Scheduling calls with Linux's semantics and error values (-EINVAL for a
 * bad policy, priority, nice or CPU mask, -ESRCH for no such task). pid 0
 * means the calling task. Kernel calls now, system calls later.
 */
struct sched_param {
	int sched_priority;               /* 1..99 for SCHED_FIFO/RR, 0 otherwise */
};

#define MIN_NICE (-20)
#define MAX_NICE 19

/* A flag to the policy, as Linux's: the task's children start as
 * SCHED_NORMAL (if it is RT) at nice 0 or above (kernel/task/fork.c). */
#define SCHED_RESET_ON_FORK 0x40000000

int sched_setscheduler(int pid, int policy, const struct sched_param *param);
int sched_getscheduler(int pid);
int sched_getparam(int pid, struct sched_param *param);
int sched_set_nice(int pid, int nice);
int sched_get_nice(int pid, int *nice);
void set_user_nice(struct task *p, int nice);     /* clamps to -20..19 */
int sched_setaffinity(int pid, cpumask_t mask);   /* moves the task at once if it must */
int sched_getaffinity(int pid, cpumask_t *mask);
int sched_yield(void);
/* Tasks runnable or running on every CPU, idle tasks aside: a moment's
 * count, read without locks (the load average's sample). */
unsigned sched_nr_running(void);
/* Task switches on every CPU since boot (/proc/stat's ctxt), read so too. */
uint64_t sched_nr_switches(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
/* What sched_rr_get_interval() tells: p's time slice in its class (0: none). */
int sched_rr_get_interval(int pid, uint64_t *ns);
