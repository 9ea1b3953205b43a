/*
 * Kernel tasks: create, start, exit, join. A task runs fn(arg) on its own
 * guarded kernel stack; returning from fn is task_exit(0).
 */
#pragma once
#include "sched/task.h"

/* Created but not started: set its policy or CPUs first if you like. NULL
 * when out of memory. Every task must be joined or detached. */
struct task *task_create(const char *name, void (*fn)(void *arg), void *arg);
/* The same, but with parent's scheduling policy, priority, nice and CPUs
 * (sched_fork): a fork's or a clone's new task. */
struct task *task_create_child(struct task *parent, const char *name, void (*fn)(void *arg), void *arg);
void task_start(struct task *p);
struct task *task_spawn(const char *name, void (*fn)(void *arg), void *arg);   /* create + start */

void task_exit(int code) __attribute__((noreturn));
int task_join(struct task *p);            /* wait for it to exit; frees it; returns its exit code */
void task_detach(struct task *p);         /* nobody will join: freed when it exits (NULL is fine) */

void tasks_init(void);                    /* the boot CPU, before any task is created */
void task_init_idle(int cpu);             /* the caller becomes cpu's idle task (idle/N) */
bool task_is_idle(const struct task *p);          /* one of the CPUs' idle tasks */
void tasks_start_reaper(void);            /* frees detached tasks that exited */
int tasks_alive(void);                    /* tasks created and not yet freed (idle tasks excluded) */

/* Visit every task (under the task list lock: fn must not sleep). */
void for_each_task(void (*fn)(struct task *p, void *arg), void *arg);
