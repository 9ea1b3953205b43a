/*
 * The scheduler trace: the kernel's side of sched/trace.h.
 *
 * Each CPU has a ring of fixed-size records that only it writes, with its
 * interrupts off, so writing takes no lock. A full ring overwrites its
 * oldest records (a flight recorder) and counts them as lost. Each record
 * copies the names it needs, so a task that has exited since is still named
 * right when the trace is printed.
 *
 * Printing first stops recording and waits until no CPU is in the middle
 * of a record: a writer announces itself (writing = true) before it checks
 * trace_on, and the printer clears trace_on before it looks at writing, so
 * (both sequentially consistent) one of them always sees the other.
 * Then the rings are merged by time into ftrace's text format, between the
 * lines "trace: begin" and "trace: end" (tools/tracefile.py finds them);
 * each event's text is the scheduler's (trace_format(), sched/trace_format.c).
 */
#include "kernel/debug/trace_buffer.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "arch/x86_64/acpi.h"
#include "kernel/task/kthread.h"
#include "sched/trace.h"
#include "sched/task.h"
#include "sched/api.h"
#include "arch/x86_64/cpu.h"
#include "lib/time_units.h"

bool trace_on;

static const char *const trace_modes[] = { "off", "sched", NULL };
enum { TRACE_OFF, TRACE_SCHED };
static int trace_mode = TRACE_OFF;
BOOT_PARAM_CHOICE("trace", trace_mode, trace_modes, "record scheduler events from boot (docs/tracing.md)");
static int64_t trace_size_kib = 2048;
BOOT_PARAM_INT("trace_size", trace_size_kib, 16, 262144, "trace buffer per CPU, KiB; when full the oldest events go");

struct trace_entry {
	uint64_t ts;
	int64_t x, y;                     /* by type: see sched/trace.h */
	uint32_t type;
	struct trace_task cur;            /* running when it happened: the line's TASK-PID */
	struct trace_task a, b;
};

struct trace_ring {
	struct trace_entry *entries;
	uint64_t size;                    /* entries in the ring */
	uint64_t written;                 /* ever; the last size of them are kept */
	bool writing;                     /* atomic: the printer waits for it to clear */
};

static struct trace_ring rings[MAX_CPUS];
static int nrings;
static bool dumping;                  /* the rings are being printed: leave them alone */

static void copy_task(struct trace_task *t, const struct task *p)
{
	if (!p)
		return;
	t->pid = p->pid;
	t->prio = p->prio;
	/* A space would split the name in two for ftrace parsers. */
	for (int i = 0; i < TASK_NAME_LEN; i++)
		t->comm[i] = p->name[i] == ' ' ? '_' : p->name[i];
}

void trace_record(enum trace_type type, uint64_t ts, const struct task *a, const struct task *b,
		  int64_t x, int64_t y)
{
	uint64_t flags = irq_save();
	int cpu = this_cpu()->id;
	struct trace_ring *r = &rings[cpu];
	__atomic_store_n(&r->writing, true, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&trace_on, __ATOMIC_SEQ_CST) && cpu < nrings) {
		struct trace_entry *e = &r->entries[r->written % r->size];
		*e = (struct trace_entry){ .ts = ts, .x = x, .y = y, .type = type };
		copy_task(&e->cur, current());
		copy_task(&e->a, a);
		copy_task(&e->b, b);
		r->written++;
	}
	__atomic_store_n(&r->writing, false, __ATOMIC_RELEASE);
	irq_restore(flags);
}

static void stop(void)
{
	__atomic_store_n(&trace_on, false, __ATOMIC_SEQ_CST);
	for (int cpu = 0; cpu < nrings; cpu++)
		while (__atomic_load_n(&rings[cpu].writing, __ATOMIC_SEQ_CST))
			cpu_relax();
}

/* Empty rings, allocated the first time (one per CPU the firmware lists). */
static bool start(void)
{
	if (!nrings) {
		int n = acpi.ncpus > 0 ? acpi.ncpus : 1;
		n = n < MAX_CPUS ? n : MAX_CPUS;
		uint64_t size = (uint64_t)trace_size_kib * 1024 / sizeof(struct trace_entry);
		for (int cpu = 0; cpu < n; cpu++) {
			rings[cpu].entries = kmalloc(size * sizeof(struct trace_entry));
			if (!rings[cpu].entries) {
				pr_warn("trace: no memory for %lld KiB per CPU: not recording", (long long)trace_size_kib);
				while (cpu-- > 0)
					kfree(rings[cpu].entries);
				return false;
			}
			rings[cpu].size = size;
		}
		nrings = n;
	}
	for (int cpu = 0; cpu < nrings; cpu++)
		rings[cpu].written = 0;
	__atomic_store_n(&trace_on, true, __ATOMIC_SEQ_CST);
	return true;
}

void trace_init(void)
{
	if (trace_mode == TRACE_SCHED && start())
		pr_info("trace: recording scheduler events, %lld KiB per CPU", (long long)trace_size_kib);
}

void trace_toggle(void)
{
	if (__atomic_load_n(&dumping, __ATOMIC_ACQUIRE)) {
		pr_info("trace: still being written out; try again after 'trace: end'");
	} else if (trace_on) {
		stop();
		pr_info("trace: stopped; 'w' writes it out");
	} else if (start()) {
		pr_info("trace: recording afresh, %lld KiB per CPU; 'r' stops, 'w' writes it out",
			(long long)trace_size_kib);
	}
}

static uint64_t kept(const struct trace_ring *r)
{
	return r->written < r->size ? r->written : r->size;
}

static const char *comm_of(const struct trace_task *t)
{
	return t->pid == 0 ? "<idle>" : t->comm;      /* ftrace's name for pid 0 */
}

/* ftrace's line: who ran, where and when; then the scheduler's words for the event. */
static void print_entry(const struct trace_entry *e, int cpu)
{
	char body[256];
	trace_format(body, sizeof(body), e->type, e->x, e->y, &e->a, &e->b, cpu);
	pr_info("%16s-%-5d [%03d] d..2 %5llu.%09llu: %s", comm_of(&e->cur), e->cur.pid, cpu,
		(unsigned long long)(e->ts / NS_PER_S), (unsigned long long)(e->ts % NS_PER_S), body);
}

/* The kernel's own total for each live task, to check the trace against. */
static void print_runtime(struct task *p, void *arg)
{
	(void)arg;
	pr_info("# runtime pid=%d ns=%llu comm=%s", p->pid, (unsigned long long)p->se.sum_exec_runtime, p->name);
}

void trace_dump(void)
{
	if (__atomic_exchange_n(&dumping, true, __ATOMIC_ACQUIRE)) {
		pr_info("trace: already being written out");
		return;
	}
	stop();
	if (!nrings) {
		pr_info("trace: nothing recorded: boot with trace=sched, or press 'r' to record");
		__atomic_store_n(&dumping, false, __ATOMIC_RELEASE);
		return;
	}
	uint64_t next[MAX_CPUS], total = 0, written = 0;
	for (int cpu = 0; cpu < nrings; cpu++) {
		next[cpu] = rings[cpu].written - kept(&rings[cpu]);
		total += kept(&rings[cpu]);
		written += rings[cpu].written;
	}
	pr_info("trace: begin (%llu events, %llu lost)", (unsigned long long)total,
		(unsigned long long)(written - total));
	pr_info("# tracer: nop");
	pr_info("#");
	pr_info("# entries-in-buffer/entries-written: %llu/%llu   #P:%d", (unsigned long long)total,
		(unsigned long long)written, nr_cpus < nrings ? nr_cpus : nrings);   /* CPUs started (maxcpus=) */
	for (int cpu = 0; cpu < nrings; cpu++)
		pr_info("# lost cpu=%d events=%llu", cpu, (unsigned long long)(rings[cpu].written - kept(&rings[cpu])));
	for_each_task(print_runtime, NULL);
	pr_info("#");
	pr_info("#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION");
	pr_info("#              | |         |   ||||      |         |");
	/* Merge: each ring is in time order (nearly: see docs), so take the earliest head. */
	for (;;) {
		int best = -1;
		for (int cpu = 0; cpu < nrings; cpu++) {
			const struct trace_ring *r = &rings[cpu];
			if (next[cpu] < r->written &&
			    (best < 0 || r->entries[next[cpu] % r->size].ts <
					 rings[best].entries[next[best] % rings[best].size].ts))
				best = cpu;
		}
		if (best < 0)
			break;
		print_entry(&rings[best].entries[next[best]++ % rings[best].size], best);
	}
	pr_info("trace: end");
	__atomic_store_n(&dumping, false, __ATOMIC_RELEASE);
}

static void dump_task(void *arg)
{
	(void)arg;
	trace_dump();
}

/* An RT task, so that busy fair tasks cannot slow the printing down. */
void trace_dump_later(void)
{
	struct task *t = task_create("trace-dump", dump_task, NULL);
	if (!t) {
		pr_warn("trace: no memory for a task to write the trace out");
		return;
	}
	sched_setscheduler(t->pid, SCHED_FIFO, &(struct sched_param){ 1 });
	task_start(t);
	task_detach(t);
}
