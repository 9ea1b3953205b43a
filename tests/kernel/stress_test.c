/*
 * The scheduler under abuse: for stress_seconds, thousands of tasks are
 * created and exit while others change their nice levels, policies and
 * allowed CPUs at random, sleep, wake each other across CPUs and fight over
 * a mutex. At the end every task must be accounted for, every page back, and
 * the runqueues consistent. (`ktest=stress stress_seconds=60`; in ktest=all
 * it is skipped unless stress_seconds is set.)
 */
#include "kernel/debug/ktest.h"
#include "lib/string.h"
#include "kernel/task/kthread.h"
#include "kernel/percpu.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "sched/check.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"

static int64_t stress_seconds;
BOOT_PARAM_INT("stress_seconds", stress_seconds, 0, 3600, "how long ktest=stress runs (0: skip it)");

#define SPAWNERS 4
#define CHURNERS 3

static volatile bool stopping;
static volatile uint64_t created, exited, changes, mutex_rounds;
static volatile int recent_pids[64];
static struct mutex shared_mutex;
static volatile uint64_t shared_counter;

static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;              /* xorshift64: small and good enough here */
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* A short life: a little work, a sleep or two, maybe the mutex, then exit. */
static void short_life(void *arg)
{
	uint64_t rnd = (uintptr_t)arg | 1;
	recent_pids[next_random(&rnd) % 64] = current()->pid;
	for (int i = (int)(next_random(&rnd) % 4); i >= 0; i--) {
		switch (next_random(&rnd) % 4) {
		case 0: delay_ns(next_random(&rnd) % (300 * NS_PER_US)); break;
		case 1: sleep_ns(next_random(&rnd) % (2 * NS_PER_MS)); break;
		case 2: sched_yield(); break;
		case 3:
			mutex_lock(&shared_mutex);
			shared_counter++;
			mutex_unlock(&shared_mutex);
			__atomic_fetch_add(&mutex_rounds, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	__atomic_fetch_add(&exited, 1, __ATOMIC_RELAXED);
}

static void spawner(void *arg)
{
	uint64_t rnd = (uintptr_t)arg * 0x9e3779b97f4a7c15ULL | 1;
	struct task *batch[16];
	while (!stopping) {
		int n = 1 + (int)(next_random(&rnd) % 16);
		for (int i = 0; i < n; i++) {
			batch[i] = task_spawn("short", short_life, (void *)(uintptr_t)next_random(&rnd));
			if (batch[i])
				__atomic_fetch_add(&created, 1, __ATOMIC_RELAXED);
		}
		for (int i = 0; i < n; i++) {
			if (!batch[i])
				continue;
			if (next_random(&rnd) % 2)
				task_join(batch[i]);
			else
				task_detach(batch[i]);
		}
	}
}

/* Random changes to random recent tasks; -ESRCH is fine (it exited). */
static void churner(void *arg)
{
	uint64_t rnd = (uintptr_t)arg * 0x2545f4914f6cdd1dULL | 1;
	cpumask_t all = (nr_cpus >= 64) ? ~0ULL : (1ULL << nr_cpus) - 1;
	while (!stopping) {
		int pid = recent_pids[next_random(&rnd) % 64];
		if (!pid)
			continue;
		switch (next_random(&rnd) % 4) {
		case 0:
			sched_set_nice(pid, (int)(next_random(&rnd) % 40) - 20);
			break;
		case 1: {
			static const int policies[] = { SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR };
			int policy = policies[next_random(&rnd) % 5];
			struct sched_param param = { policy == SCHED_FIFO || policy == SCHED_RR ?
						     1 + (int)(next_random(&rnd) % 99) : 0 };
			sched_setscheduler(pid, policy, &param);
			break;
		}
		case 2: {
			cpumask_t mask = next_random(&rnd) & all;
			sched_setaffinity(pid, mask ? mask : all);
			break;
		}
		case 3:
			sleep_ns(next_random(&rnd) % NS_PER_MS);
			break;
		}
		__atomic_fetch_add(&changes, 1, __ATOMIC_RELAXED);
	}
}

/*
 * The rule that no task is ever lost (sched_check_task): every task is
 * running, queued, or asleep with a wake-up registered. Read without the
 * scheduler's locks, a task can look lost for a moment (a waker has taken it
 * off its wait queue, or its timer off the timer queue, and not yet queued
 * it), and the host may stall that waker's virtual CPU for tens of ms. A
 * lost task stays lost, so one is reported only when it has looked lost,
 * neither switching nor being woken, in every scan for a whole second.
 */
#define SUSPECTS 16
#define LOST_AFTER_NS NS_PER_S
struct suspect {
	int pid;
	uint64_t switches, wakeups, since;
	bool reported;
};
static struct suspect suspects[SUSPECTS], seen_before[SUSPECTS];
static int nr_suspects, nr_seen_before;
static volatile uint64_t lost_tasks;

static void scan_task(struct task *p, void *arg)
{
	(void)arg;
	char why[160];
	if (nr_suspects == SUSPECTS || sched_check_task(p, why, sizeof(why)))
		return;
	struct suspect now = { p->pid, p->stats.nr_switches, p->stats.nr_wakeups, clock_ns(), false };
	for (int i = 0; i < nr_seen_before; i++) {
		struct suspect *was = &seen_before[i];
		if (was->pid == now.pid && was->switches == now.switches && was->wakeups == now.wakeups) {
			now.since = was->since;
			now.reported = was->reported;
		}
	}
	if (!now.reported && clock_ns() - now.since >= LOST_AFTER_NS) {
		pr_err("  # lost task: %s", why);
		lost_tasks++;
		now.reported = true;
	}
	suspects[nr_suspects++] = now;
}

static void lost_task_watcher(void *arg)
{
	(void)arg;
	while (!stopping) {
		nr_suspects = 0;
		for_each_task(scan_task, NULL);
		memcpy(seen_before, suspects, sizeof(suspects));
		nr_seen_before = nr_suspects;
		sleep_ns(50 * NS_PER_MS);
	}
}

/* Every page is free, or kept by kmalloc's small-block lists, or a page table
 * (freed stacks kept for reuse are given back first). */
static size_t pages_accounted(void)
{
	kstack_trim();
	return pmm_free_pages() + kmalloc_slab_pages() + vmm_table_pages();
}

KTEST(stress, churn_tasks_policies_affinity)
{
	if (stress_seconds == 0)
		KSKIP(t, "set stress_seconds= to run it");
	int alive_before = tasks_alive();
	size_t live_blocks_before = kmalloc_live_blocks(), pages_before = pages_accounted();
	mutex_init(&shared_mutex, "stress");
	stopping = false;
	created = exited = changes = mutex_rounds = shared_counter = lost_tasks = 0;
	nr_seen_before = 0;

	struct task *watcher = task_spawn("lost_watcher", lost_task_watcher, NULL);
	KASSERT(t, watcher != NULL);
	struct task *workers[SPAWNERS + CHURNERS];
	for (int i = 0; i < SPAWNERS + CHURNERS; i++) {
		workers[i] = task_spawn(i < SPAWNERS ? "spawner" : "churner", i < SPAWNERS ? spawner : churner,
					(void *)(uintptr_t)(i + 1));
		KASSERT(t, workers[i] != NULL);
	}
	for (int64_t s = 0; s < stress_seconds; s++) {
		sleep_ns(NS_PER_S);
		if (s % 10 == 9)
			pr_info("  # %llds: %llu tasks created, %llu exited, %llu changes", (long long)s + 1,
				(unsigned long long)created, (unsigned long long)exited, (unsigned long long)changes);
	}
	stopping = true;
	for (int i = 0; i < SPAWNERS + CHURNERS; i++)
		task_join(workers[i]);
	task_join(watcher);
	/* The reaper catches up with the detached: a task stops counting as
	 * alive before its memory goes (freeing a stack waits for a TLB
	 * shootdown), so wait for both. A real leak stays and fails below. */
	for (int i = 0; i < 500 && (tasks_alive() != alive_before || kmalloc_live_blocks() != live_blocks_before); i++)
		sleep_ns(10 * NS_PER_MS);

	pr_info("  # %llu tasks created, %llu exited, %llu changes, %llu mutex rounds", (unsigned long long)created,
		(unsigned long long)exited, (unsigned long long)changes, (unsigned long long)mutex_rounds);
	KEXPECT(t, created >= 20 * (uint64_t)stress_seconds);   /* it churned, even traced on a busy host */
	KEXPECT_EQ(t, lost_tasks, 0);
	KEXPECT_EQ(t, exited, created);
	KEXPECT_EQ(t, shared_counter, mutex_rounds);
	KEXPECT_EQ(t, tasks_alive(), alive_before);
	KEXPECT_EQ(t, kmalloc_live_blocks(), live_blocks_before);
	KEXPECT_EQ(t, pages_accounted(), pages_before);
	char why[160];
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		bool ok = sched_check_cpu(cpu, why, sizeof(why));
		if (!ok)
			pr_info("  # cpu%d: %s", cpu, why);
		KEXPECT(t, ok);
	}
}
