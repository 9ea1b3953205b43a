/* The simulator (see sim.h), and its implementation of sched/platform.h. */
#include "tests/host/lib.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/sim/sim.h"
#include "tests/host/test.h"
#include "kernel/sysctl.h"
#include "kernel/errno.h"
#include "kernel/debug/ktest.h"
#include "sched/trace.h"
#include "sched/check.h"

static int ncpus, hz;
static int this_cpu_id;
static uint64_t now;
static struct task *current[SCHED_MAX_CPUS];
static struct task idle_tasks[SCHED_MAX_CPUS];
static uint64_t next_tick[SCHED_MAX_CPUS];
static int switches[SCHED_MAX_CPUS];
static bool irqs_off[SCHED_MAX_CPUS];
static bool in_irq[SCHED_MAX_CPUS];         /* running a timer's or a tick's handler */
static bool nohz;
static bool lost_task_reported;
/* The ring's members without the token wait on the ring, as on a wait queue. */
static struct list_node ring_waiters = LIST_HEAD_INIT(ring_waiters);

static struct sim_task tasks[SIM_MAX_TASKS];
static int ntasks;

/* Pending timers, unordered: the simulator has few. */
static struct timer *timers[4 * SIM_MAX_TASKS];
static int ntimers;

/* Tunables' defaults, saved on the first reset and restored on each. */
static int64_t saved_defaults[256];
static bool defaults_saved;

/* ---- sched/platform.h ---- */

uint64_t sched_clock(void) { return now; }
int sched_this_cpu(void) { return this_cpu_id; }
int sched_nr_cpus(void) { return ncpus; }
bool sched_cpu_online(int cpu) { return cpu >= 0 && cpu < ncpus; }
/* Interrupts are modelled as a flag per CPU, so that code which must act
 * when they come back on (a pending reschedule) is seen to do so. */
bool sched_irqs_enabled(void) { return !irqs_off[this_cpu_id]; }
bool sched_in_interrupt(void) { return in_irq[this_cpu_id]; }

uint64_t sched_irq_save(void)
{
	bool were_on = !irqs_off[this_cpu_id];
	irqs_off[this_cpu_id] = true;
	return were_on;
}

void sched_irq_restore(uint64_t flags) { irqs_off[this_cpu_id] = !flags; }
bool sim_irqs_off(int cpu) { return irqs_off[cpu]; }
void sched_cpu_relax(void) {}
void sched_send_resched(int cpu) { (void)cpu; }   /* the event loop checks need_resched */
struct task *sched_current(void) { return current[this_cpu_id]; }
void sched_set_current(struct task *p) { current[this_cpu_id] = p; }
void sched_task_dead(struct task *p) { (void)p; }
void sched_task_put(struct task *p) { (void)p; }

struct task *sched_task_get(int pid)
{
	for (int i = 0; i < ntasks; i++)
		if (tasks[i].task.pid == pid)
			return &tasks[i].task;
	return NULL;
}

struct task *sched_switch_to(struct task *prev, struct task *next)
{
	struct sim_task *t = (struct sim_task *)next;
	if (next != &idle_tasks[this_cpu_id]) {
		if (!t->first_run_at)
			t->first_run_at = now;
		if (t->woken_at) {
			uint64_t latency = now - t->woken_at;
			t->wake_latency_sum += latency;
			if (latency > t->wake_latency_max)
				t->wake_latency_max = latency;
			uint64_t bucket = latency / SIM_LATENCY_STEP;
			t->latency_hist[bucket < SIM_LATENCY_BUCKETS ? bucket : SIM_LATENCY_BUCKETS - 1]++;
			t->woken_at = 0;
		}
	}
	switches[this_cpu_id]++;
	return prev;
}

/* sim_catch_bug() arms this: a bug then returns there instead of aborting. */
static jmp_buf *bug_trap;
static char *bug_msg;
static size_t bug_msg_len;

static void __attribute__((noreturn)) bug(const char *fmt, va_list ap)
{
	if (bug_trap) {
		vsnprintf(bug_msg, bug_msg_len, fmt, ap);
		longjmp(*bug_trap, 1);
	}
	fprintf(stderr, "sched_bug: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	abort();
}

void sched_bug(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bug(fmt, ap);
}

/* The kernel's panic(), as a broken contract (kernel/spinlock.h) calls it. */
void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bug(fmt, ap);
}

bool sim_catch_bug(void (*fn)(void), char *msg, size_t len)
{
	jmp_buf trap;
	bug_trap = &trap;
	bug_msg = msg;
	bug_msg_len = len;
	if (setjmp(trap) == 0) {
		fn();
		bug_trap = NULL;
		return false;
	}
	bug_trap = NULL;
	return true;
}

/* The simulation is single-threaded: a lock only checks it is used right. */
void spin_lock(struct spinlock *lock)
{
	if (lock->holder_cpu >= 0)
		sched_bug("lock '%s' taken twice", lock->name);
	lock->holder_cpu = this_cpu_id;
}

void spin_unlock(struct spinlock *lock)
{
	assert_held(lock);
	lock->holder_cpu = -1;
}

uint64_t spin_lock_irqsave(struct spinlock *lock)
{
	uint64_t flags = sched_irq_save();
	spin_lock(lock);
	return flags;
}

/* sim_fail_trylocks(): the lock another CPU seems to hold, for how many tries. */
static struct spinlock *busy_lock;
static int busy_lock_tries;

void sim_fail_trylocks(struct spinlock *lock, int tries)
{
	busy_lock = lock;
	busy_lock_tries = tries;
}

bool spin_trylock(struct spinlock *lock)
{
	if (lock == busy_lock && busy_lock_tries > 0) {
		busy_lock_tries--;
		return false;
	}
	spin_lock(lock);              /* nobody else can hold it: one thread */
	return true;
}
void spin_unlock_irqrestore(struct spinlock *lock, uint64_t flags)
{
	spin_unlock(lock);
	sched_irq_restore(flags);
}

void spin_lock_nested(struct spinlock *lock, int subclass)
{
	(void)subclass;
	spin_lock(lock);
}

/* The lock-order checker is the kernel's alone (kernel/debug/lockdep.c). */
void sched_mutex_acquire(struct mutex *m, bool trylock, uint64_t ip) { (void)m; (void)trylock; (void)ip; }
void sched_mutex_release(struct mutex *m) { (void)m; }
void sched_might_sleep(const char *what, uint64_t ip) { (void)what; (void)ip; }

/* The rest of the kernel's checked contracts (kernel/spinlock.h). */
int spin_this_cpu(void) { return this_cpu_id; }

void assert_irqs_off_in(const char *func)
{
	if (!irqs_off[this_cpu_id])
		sched_bug("%s: cpu%d must have interrupts off, but they are on", func, this_cpu_id);
}

void printk(enum log_level level, const char *fmt, ...)
{
	if (level > LOG_WARN || !getenv("SIM_VERBOSE"))
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

void timer_start(struct timer *t, uint64_t expires)
{
	timer_cancel(t);
	t->expires = expires;
	t->cpu = this_cpu_id;
	timers[ntimers++] = t;
}

uint64_t timer_lateness_ns(void) { return 0; }   /* simulated timers fire on time */

bool timer_cancel(struct timer *t)
{
	for (int i = 0; i < ntimers; i++) {
		if (timers[i] == t) {
			timers[i] = timers[--ntimers];
			t->cpu = -1;
			return true;
		}
	}
	return false;
}

/* ---- sched/trace.h: the switches, for the tests ---- */

bool trace_on;
static struct sim_switch trace_log[SIM_TRACE_MAX];
static int trace_len;
static bool trace_overflow;

void trace_record(enum trace_type type, uint64_t ts, const struct task *a, const struct task *b,
		  int64_t x, int64_t y)
{
	(void)x, (void)y;
	if (type != TRACE_SWITCH)
		return;
	if (trace_len == SIM_TRACE_MAX)
		trace_overflow = true;
	else
		trace_log[trace_len++] = (struct sim_switch){ ts, this_cpu_id, a, b };
}

void sim_trace_start(void)
{
	trace_len = 0;
	trace_overflow = false;
	trace_on = true;
}

int sim_trace(const struct sim_switch **log, bool *overflow)
{
	*log = trace_log;
	*overflow = trace_overflow;
	return trace_len;
}

/* ---- the machine ---- */

void sim_on_cpu(int cpu) { this_cpu_id = cpu; }
uint64_t sim_now(void) { return now; }
struct rq *sim_rq(int cpu) { return cpu_rq(cpu); }
int sim_switches(int cpu) { return switches[cpu]; }
uint64_t sim_runtime(const struct sim_task *t) { return t->task.se.sum_exec_runtime; }

static void save_or_restore_defaults(void)
{
	int i = 0;
	for (const struct param *p = __start_boot_params; p < __stop_boot_params && i < 256; p++, i++) {
		if (!p->sysctl)
			continue;
		if (defaults_saved)
			*(int64_t *)p->var = saved_defaults[i];
		else
			saved_defaults[i] = *(int64_t *)p->var;
	}
	defaults_saved = true;
}

void sim_sysctl(const char *name, int64_t value)
{
	if (sysctl_set(name, value) != 0)
		sched_bug("sysctl %s=%lld refused", name, (long long)value);
}

int64_t sim_sysctl_get(const char *name)
{
	int64_t v = 0;
	if (sysctl_get(name, &v) != 0)
		sched_bug("no tunable %s", name);
	return v;
}

void sim_reset(int cpus, int ticks_per_second)
{
	sim_reset_sched(cpus, ticks_per_second, "cfs");
}

void sim_reset_sched(int cpus, int ticks_per_second, const char *sched)
{
	if (sched_select(sched) != 0) {
		fprintf(stderr, "sim_reset_sched: no scheduler %s\n", sched);
		abort();
	}
	save_or_restore_defaults();
	trace_on = false;
	ncpus = cpus;
	hz = ticks_per_second;
	nohz = false;
	lost_task_reported = false;
	busy_lock = NULL;
	list_init(&ring_waiters);
	memset(irqs_off, 0, sizeof(irqs_off));
	memset(in_irq, 0, sizeof(in_irq));
	now = 1 * SIM_S;                  /* not 0: 0 means "never" in some fields */
	ntasks = ntimers = 0;
	memset(tasks, 0, sizeof(tasks));
	memset(idle_tasks, 0, sizeof(idle_tasks));
	memset(switches, 0, sizeof(switches));
	sched_init();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		sim_on_cpu(cpu);
		snprintf(idle_tasks[cpu].name, TASK_NAME_LEN, "idle/%d", cpu % 100);
		sched_init_idle(&idle_tasks[cpu], cpu);
		/* Stagger the CPUs' ticks, as real CPUs are never in step. */
		next_tick[cpu] = now + SIM_S / (uint64_t)hz * (uint64_t)(cpu + 1) / (uint64_t)(ncpus + 1);
	}
	sim_on_cpu(0);
}

void sim_align_ticks(void)
{
	for (int cpu = 1; cpu < ncpus; cpu++)
		next_tick[cpu] = next_tick[0];
}

static void wake(struct sim_task *t)
{
	t->woken_at = now;
	t->wakeups++;
	t->burst_left = t->run_ns;
	list_remove(&t->task.wait_node);   /* a ring member leaves the ring's "wait queue" */
	wake_up_process(&t->task);
}

static void wake_timer_fired(struct timer *timer)
{
	wake(container_of(timer, struct sim_task, wake_timer));
}

struct sim_task *sim_periodic(const char *name, uint64_t run_ns, uint64_t period_ns)
{
	struct sim_task *t = sim_task(name, run_ns, period_ns - run_ns);
	t->period_ns = period_ns;
	return t;
}

uint64_t sim_latency_percentile(const struct sim_task *t, double pct)
{
	uint64_t total = 0, seen = 0;
	for (int i = 0; i < SIM_LATENCY_BUCKETS; i++)
		total += t->latency_hist[i];
	for (int i = 0; i < SIM_LATENCY_BUCKETS; i++) {
		seen += t->latency_hist[i];
		if ((double)seen >= (double)total * pct / 100)
			return (uint64_t)(i + 1) * SIM_LATENCY_STEP;     /* the bucket's upper edge */
	}
	return SIM_LATENCY_BUCKETS * SIM_LATENCY_STEP;
}

void sim_set_nohz(bool on) { nohz = on; }

static struct sim_task *new_task(struct task *parent, const char *name, uint64_t run_ns, uint64_t sleep_ns)
{
	if (ntasks == SIM_MAX_TASKS)
		sched_bug("too many simulated tasks");
	struct sim_task *t = &tasks[ntasks++];
	struct task *p = &t->task;
	snprintf(p->name, TASK_NAME_LEN, "%.15s", name);
	p->pid = ntasks;
	sched_fork(p, parent);
	list_init(&p->wait_node);
	t->run_ns = run_ns;
	t->sleep_ns = sleep_ns;
	t->burst_left = run_ns;
	t->wake_timer = (struct timer)TIMER_INIT(wake_timer_fired);
	p->wake_timer = &t->wake_timer;
	return t;
}

struct sim_task *sim_task(const char *name, uint64_t run_ns, uint64_t sleep_ns)
{
	return new_task(NULL, name, run_ns, sleep_ns);
}

struct sim_task *sim_fork(struct sim_task *parent, const char *name)
{
	return new_task(&parent->task, name, 0, 0);
}

/* The simulator itself starts and changes tasks from outside any task, as
 * an interrupt would: a switch that calls for comes at the end of the event. */
void sim_set_policy(struct sim_task *t, int policy, int rt_priority, int nice)
{
	uint64_t flags = sched_irq_save();
	sched_change_task(&t->task, policy, rt_priority, nice);
	sched_irq_restore(flags);
}

void sim_set_affinity(struct sim_task *t, cpumask_t mask)
{
	t->task.cpus_allowed = mask;
}

void sim_start(struct sim_task *t, int on_cpu)
{
	sim_on_cpu(on_cpu);
	set_task_cpu(&t->task, on_cpu);
	t->next_deadline = now + t->period_ns;
	uint64_t flags = sched_irq_save();
	wake_up_new_task(&t->task);
	sched_irq_restore(flags);
}

void sim_exit(struct sim_task *t)
{
	sim_on_cpu(t->task.cpu);
	if (current[t->task.cpu] != &t->task)
		test_fail(__FILE__, __LINE__, "sim_exit: %s is not running", t->task.name);
	set_task_state(&t->task, TASK_DEAD);
	schedule();
}

void sim_ring(struct sim_task **t, int n, int on_cpu)
{
	for (int i = 0; i < n; i++) {
		t[i]->passes_to = t[(i + 1) % n];
		t[i]->holds_token = i == 0;
		t[i]->burst_left = i == 0 ? t[i]->run_ns : 0;    /* the others wait at once */
		sim_start(t[i], on_cpu);
	}
}

static bool is_sim_task(const struct task *p)
{
	const struct sim_task *t = (const struct sim_task *)p;   /* task is its first member */
	return t >= tasks && t < tasks + SIM_MAX_TASKS;
}

/* What the interrupt-return path does in the kernel: an involuntary switch. */
static void reschedule_if_asked(int cpu)
{
	sim_on_cpu(cpu);
	preempt_schedule_irq();
}

/* A periodic task's next deadline: the first multiple of its period ahead. */
static uint64_t next_period(struct sim_task *t)
{
	while (t->next_deadline <= now)
		t->next_deadline += t->period_ns;
	return t->next_deadline;
}

/* The running task finished its burst: it sleeps (or, a hog, never gets here). */
static void end_burst(int cpu)
{
	struct sim_task *t = (struct sim_task *)current[cpu];
	sim_on_cpu(cpu);
	set_task_state(&t->task, TASK_SLEEPING);
	if (!t->passes_to) {
		timer_start(&t->wake_timer, t->period_ns ? next_period(t) : now + t->sleep_ns);
		return schedule();
	}
	/* Pass the token and block in one go, as a kernel's pipe write and
	 * read would: a wake-up that preempts us here would switch us out
	 * with the rest of this function still to run for us. */
	list_add_tail(&ring_waiters, &t->task.wait_node);
	if (t->holds_token) {
		uint64_t flags = sched_irq_save();
		t->holds_token = false;
		t->passes_to->holds_token = true;
		wake(t->passes_to);
		sched_irq_restore(flags);
	}
	schedule();
}

static bool bursting(int cpu)
{
	struct task *p = current[cpu];
	return is_sim_task(p) && (((struct sim_task *)p)->sleep_ns > 0 || ((struct sim_task *)p)->passes_to);
}

/* An interrupt handler on the current CPU: interrupts off while it runs. */
static void in_interrupt(void (*fn)(struct timer *t), struct timer *t)
{
	uint64_t flags = sched_irq_save();
	in_irq[this_cpu_id] = true;
	fn(t);
	in_irq[this_cpu_id] = false;
	sched_irq_restore(flags);
}

static void tick_fn(struct timer *t)
{
	(void)t;
	scheduler_tick();
}

static bool cpu_is_idle(int cpu)
{
	return current[cpu] == &idle_tasks[cpu] && cpu_rq(cpu)->nr_running == 0;
}

bool sim_check_no_task_lost(char *why, size_t len)
{
	for (int i = 0; i < ntasks; i++)
		if (!sched_check_task(&tasks[i].task, why, len))
			return false;
	return true;
}

/* After every event: a lost task fails the test, once, with its name. */
static void check_no_task_lost(void)
{
	char why[160];
	if (!lost_task_reported && !sim_check_no_task_lost(why, sizeof(why))) {
		lost_task_reported = true;
		test_fail(__FILE__, __LINE__, "%s (at %llu ns)", why, (unsigned long long)now);
	}
}

void sim_run(uint64_t ns)
{
	uint64_t end = now + ns;
	while (now < end) {
		/* The next event: a tick, a timer, or the end of a burst. */
		uint64_t next = end;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			if (next_tick[cpu] < next)
				next = next_tick[cpu];
			if (bursting(cpu) && now + ((struct sim_task *)current[cpu])->burst_left < next)
				next = now + ((struct sim_task *)current[cpu])->burst_left;
		}
		for (int i = 0; i < ntimers; i++)
			if (timers[i]->expires < next)
				next = timers[i]->expires;

		uint64_t elapsed = next - now;
		for (int cpu = 0; cpu < ncpus; cpu++)
			if (bursting(cpu))
				((struct sim_task *)current[cpu])->burst_left -= elapsed;
		now = next;

		for (int cpu = 0; cpu < ncpus; cpu++)
			if (bursting(cpu) && ((struct sim_task *)current[cpu])->burst_left == 0)
				end_burst(cpu);
		for (int i = 0; i < ntimers; i++) {
			struct timer *t = timers[i];
			if (t->expires <= now) {
				timers[i--] = timers[--ntimers];
				sim_on_cpu(t->cpu);
				t->cpu = -1;
				in_interrupt(t->fn, t);
			}
		}
		for (int cpu = 0; cpu < ncpus; cpu++) {
			if (next_tick[cpu] <= now) {
				next_tick[cpu] += SIM_S / (uint64_t)hz;
				sim_on_cpu(cpu);
				if (!(nohz && cpu_is_idle(cpu)))
					in_interrupt(tick_fn, NULL);
			}
		}
		for (int cpu = 0; cpu < ncpus; cpu++)
			reschedule_if_asked(cpu);
		check_no_task_lost();
	}
}

void sim_stall(uint64_t ns)
{
	now += ns;
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (next_tick[cpu] < now)
			next_tick[cpu] = now;
	for (int i = 0; i < ntimers; i++)
		if (timers[i]->expires < now)
			timers[i]->expires = now;
}

void sim_run_through_tick(int cpu)
{
	sim_run(next_tick[cpu] - now);
}

/* kernel/sysctl.c carries an in-kernel test; on the host it never runs, but
 * its failure reporter must link. */
void ktest_report(struct ktest_ctx *t, const char *file, int line, const char *fmt, ...)
{
	(void)t;
	test_fail(file, line, "%s", fmt);
}
