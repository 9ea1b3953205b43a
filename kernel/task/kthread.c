/*
 * The life of a kernel task: created with a stack and neutral scheduling
 * state (SCHED_NORMAL, nice 0, every CPU allowed) or its parent's, started
 * by the scheduler's wake_up_new_task(), run, exited, then joined or reaped.
 *
 * A task's memory goes when its last reference does: the creator's (given up
 * by task_join or task_detach) and any taken by sched_task_get(). The stack
 * may only go once the task has switched away for the last time, which the
 * scheduler reports through sched_task_dead().
 */
#include "kernel/task/kthread.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/vmm.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "arch/x86_64/context.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/time.h"
#include "lib/string.h"
#include "lib/printf.h"

static struct list_node all_tasks = LIST_HEAD_INIT(all_tasks);
static struct spinlock tasks_lock = SPINLOCK_INIT("tasks");
static int next_pid = 1;
static int alive;                     /* tasks whose memory is not yet given back */

static struct task idle_tasks[MAX_CPUS];

/* Detached tasks that have exited, for the reaper to free. */
static struct list_node zombies = LIST_HEAD_INIT(zombies);
static struct wait_queue reaper_wq;
static struct spinlock zombies_lock = SPINLOCK_INIT("zombies");

/* Under the task list lock, so sched_task_get() cannot find a task whose
 * last reference is going: it is off the list before the count can be seen as 0. */
void sched_task_put(struct task *p)
{
	uint64_t flags = spin_lock_irqsave(&tasks_lock);
	bool last = --p->refcount == 0;
	if (last)
		list_remove(&p->all_tasks);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (last) {
		kstack_free(p->kstack_top);
		kfree(p);
		/* Only now, so a leak check that waits for the count sees the frees. */
		__atomic_fetch_sub(&alive, 1, __ATOMIC_RELEASE);
	}
}

struct task *sched_task_get(int pid)
{
	struct task *found = NULL;
	struct list_node *n;
	uint64_t flags = spin_lock_irqsave(&tasks_lock);
	list_for_each(n, &all_tasks) {
		struct task *p = list_entry(n, struct task, all_tasks);
		if (p->pid == pid) {
			found = p;
			p->refcount++;
			break;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

void for_each_task(void (*fn)(struct task *p, void *arg), void *arg)
{
	struct list_node *n;
	uint64_t flags = spin_lock_irqsave(&tasks_lock);
	list_for_each(n, &all_tasks)
		fn(list_entry(n, struct task, all_tasks), arg);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

int tasks_alive(void)
{
	return __atomic_load_n(&alive, __ATOMIC_ACQUIRE);
}

/* A new task's first instructions (from task_entry_asm). */
void __attribute__((noreturn)) task_entry(struct task *prev)
{
	finish_task_switch(prev);
	irq_enable();
	preempt_check_resched();          /* a wake-up may have asked for a switch meanwhile */
	struct task *me = current();
	me->entry(me->arg);
	task_exit(0);
}

struct task *task_create(const char *name, void (*fn)(void *arg), void *arg)
{
	return task_create_child(NULL, name, fn, arg);
}

struct task *task_create_child(struct task *parent, const char *name, void (*fn)(void *arg), void *arg)
{
	struct task *p = kzalloc(sizeof(*p));
	if (!p)
		return NULL;
	p->kstack_top = kstack_alloc(name);
	if (!p->kstack_top) {
		kfree(p);
		return NULL;
	}
	strlcpy(p->name, name, sizeof(p->name));
	p->entry = fn;
	p->arg = arg;
	sched_fork(p, parent);
	p->preempt_count = 1;             /* it starts inside schedule(), holding the runqueue lock */
	p->joinable = true;
	p->refcount = 1;
	list_init(&p->wait_node);
	wait_queue_init(&p->exited, "task_exited");
	p->cputime_lock = (struct spinlock)SPINLOCK_INIT("cputime");
	p->start_ns = clock_ns();
	p->saved_rsp = arch_task_stack_init(p->kstack_top);

	uint64_t flags = spin_lock_irqsave(&tasks_lock);
	p->pid = next_pid++;
	list_add_tail(&all_tasks, &p->all_tasks);
	__atomic_fetch_add(&alive, 1, __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return p;
}

void task_start(struct task *p)
{
	wake_up_new_task(p);
}

struct task *task_spawn(const char *name, void (*fn)(void *arg), void *arg)
{
	struct task *p = task_create(name, fn, arg);
	if (p)
		task_start(p);
	return p;
}

void task_exit(int code)
{
	struct task *me = current();
	me->exit_code = code;
	set_task_state(me, TASK_DEAD);
	schedule();
	panic("task_exit: %s ran again after exiting", me->name);
}

/* A joiner waits for this without the lock it is written under. */
static bool has_finished(const struct task *p)
{
	return __atomic_load_n(&p->finished, __ATOMIC_RELAXED);
}

/* The scheduler: p has switched away for good. Wake its joiner, or reap it. */
void sched_task_dead(struct task *p)
{
	/* Under the lock task_detach() takes, so exactly one of us frees p. */
	uint64_t flags = spin_lock_irqsave(&p->exited.lock);
	__atomic_store_n(&p->finished, true, __ATOMIC_RELAXED);
	bool joinable = p->joinable;
	/* The joiner is woken before the lock goes: once it is free, the
	 * joiner may see `finished` and free p. */
	if (joinable)
		wake_up_locked(&p->exited, 1 << 30);
	spin_unlock_irqrestore(&p->exited.lock, flags);
	if (joinable)
		return;
	flags = spin_lock_irqsave(&zombies_lock);
	list_add_tail(&zombies, &p->wait_node);
	spin_unlock_irqrestore(&zombies_lock, flags);
	wake_up_one(&reaper_wq);
}

int task_join(struct task *p)
{
	wait_event(&p->exited, has_finished(p));
	/* `finished` is set under this lock by the CPU p died on, which may
	 * still be waking us: take the lock once, so that CPU is done with p
	 * before p is freed. */
	uint64_t flags = spin_lock_irqsave(&p->exited.lock);
	spin_unlock_irqrestore(&p->exited.lock, flags);
	int code = p->exit_code;
	sched_task_put(p);
	return code;
}

void task_detach(struct task *p)
{
	if (!p)
		return;                   /* as kfree(NULL): task_detach(task_spawn(...)) needs no check */
	/* If it has finished already, nobody else will free it: we do. */
	uint64_t flags = spin_lock_irqsave(&p->exited.lock);
	p->joinable = false;
	bool done = has_finished(p);
	spin_unlock_irqrestore(&p->exited.lock, flags);
	if (done)
		sched_task_put(p);
}

static bool zombies_waiting(void)
{
	return !list_empty(&zombies);
}

static void reaper(void *arg)
{
	(void)arg;
	for (;;) {
		wait_event(&reaper_wq, zombies_waiting());
		uint64_t flags = spin_lock_irqsave(&zombies_lock);
		struct task *p = list_first_entry(&zombies, struct task, wait_node);
		list_remove(&p->wait_node);
		spin_unlock_irqrestore(&zombies_lock, flags);
		sched_task_put(p);
	}
}

void tasks_init(void)
{
	wait_queue_init(&reaper_wq, "reaper");
	sched_init();
	pr_info("sched: normal tasks are scheduled by %s (sched=list lists the others)", sched_selected());
}

bool task_is_idle(const struct task *p)
{
	return p >= idle_tasks && p < idle_tasks + MAX_CPUS;
}

void task_init_idle(int cpu)
{
	struct task *idle = &idle_tasks[cpu];
	snprintf(idle->name, sizeof(idle->name), "idle/%d", cpu);
	list_init(&idle->wait_node);
	sched_init_idle(idle, cpu);
}

void tasks_start_reaper(void)
{
	struct task *r = task_spawn("reaper", reaper, NULL);
	if (!r)
		panic("tasks: no memory for the reaper");
	task_detach(r);
}
