/*
 * Everything sched/ needs from the rest of the kernel, and nothing more: a
 * clock, locks, CPU numbers, an interrupt to another CPU, a context switch,
 * one-shot timers and a log. The kernel implements it in kernel/entry/sched_glue.c
 * and arch/x86_64/switch.asm; the host tests implement it over a simulated
 * clock and simulated CPUs (tests/sim/), so the same scheduler code runs in
 * both places.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "kernel/spinlock.h"      /* struct spinlock, spin_lock*(), assert_held(), assert_irqs_off():
                                     the kernel's or the simulator's */
#include "kernel/printk.h"        /* printk(), pr_*() */
#include "kernel/time/timer.h"    /* struct timer, timer_start(), timer_cancel() */

struct task;

#define SCHED_MAX_CPUS 64

uint64_t sched_clock(void);               /* ns since boot, one domain on every CPU */
int sched_this_cpu(void);                 /* the CPU running this code: it stays so only while
                                             interrupts or preemption are off */
int sched_nr_cpus(void);                  /* CPUs started: 0 .. n-1 */
bool sched_cpu_online(int cpu);
void sched_send_resched(int cpu);         /* interrupt cpu so it reschedules */

/* Switch this CPU from prev's stack to next's. Returns, much later, in next's
 * context... and to prev when something switches back to it; the value is
 * the task that ran just before (needed to finish the switch). */
struct task *sched_switch_to(struct task *prev, struct task *next);

bool sched_irqs_enabled(void);            /* may this CPU be interrupted now? */
bool sched_in_interrupt(void);            /* is this CPU handling an interrupt (a timer's expiry, an IPI)? */
uint64_t sched_irq_save(void);            /* interrupts off; returns the old state */
void sched_irq_restore(uint64_t flags);
void sched_cpu_relax(void);               /* in a spin-wait loop */

/* The lock-order checker (kernel/debug/lockdep.h; the simulator's do nothing).
 * ip: the caller of the mutex or sleep function. */
struct mutex;
void sched_mutex_acquire(struct mutex *m, bool trylock, uint64_t ip);   /* before waiting; a trylock once taken */
void sched_mutex_release(struct mutex *m);
void sched_might_sleep(const char *what, uint64_t ip);

/* kernel/task/kthread.c: p has switched away for the last time; its stack is free. */
void sched_task_dead(struct task *p);
/* kernel/task/kthread.c: the task with this pid, with a reference held (NULL if none);
 * give it back with sched_task_put(). */
struct task *sched_task_get(int pid);
void sched_task_put(struct task *p);
/* A bug the scheduler cannot continue from. */
void sched_bug(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* The task running on this CPU. Setting it also gives the CPU the rest of
 * the task's state: for a user task, its page tables and more. The
 * kernel's is inline, one load, as every system call asks it several times;
 * the simulator's (tests/host.mk defines SCHED_SIMULATOR) a function. */
#ifdef SCHED_SIMULATOR
struct task *sched_current(void);
#else
#include "kernel/percpu.h"
static inline struct task *sched_current(void) { return current(); }
#endif
void sched_set_current(struct task *p);
