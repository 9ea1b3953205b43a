/*
 * The lock-order checker: see kernel/debug/lockdep.h for what it finds, and
 * docs/debugging.md for how to read its report.
 *
 * The state: a table of classes (found by the name's address, then by its
 * text, so one name is one class wherever it is spelled), the edges between
 * them (class A held when class B was taken, with where that first
 * happened), and what each CPU and each task holds now. Spinlocks are held
 * by a CPU: a task cannot be switched out holding one, and the runqueue's is
 * taken by one task and let go by the next. Mutexes are held by a task.
 * An interrupt handler's locks go on the interrupted CPU's list: what the
 * interrupted code holds stays held while the handler waits, so that order
 * is real (even a lock it was still waiting for: its ticket is drawn).
 *
 * The fast path reads the tables without a lock (an entry, once
 * published, never changes); a new class or a new edge is added under
 * graph_lock, and only a new edge searches the graph for a cycle, so the
 * work is bounded by the tables' sizes and is done once per pair.
 */
#include "kernel/debug/lockdep.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/ksyms.h"
#include "arch/x86_64/cpu.h"
#include "sched/task.h"
#include "sched/platform.h"
#include "lib/string.h"
#include "lib/printf.h"

bool lockdep_on;
BOOT_PARAM_BOOL("lockdep", lockdep_on,
		"check the order locks are taken in, and sleeps and user copies under spinlocks (docs/debugging.md)");

#define MAX_CLASSES 256
#define KEY_SLOTS   1024          /* name address -> class; a power of 2 */
#define MAX_EDGES   1024
#define EDGE_SLOTS  2048          /* (from, to) -> edge; a power of 2 */
#define CPU_DEPTH   (MAX_CPUS + 8) /* spinlocks one CPU holds at once: smp_call_on_each_cpu() holds a mailbox a CPU */
#define EDGE_HELD   6             /* the held locks an edge remembers */
#define EDGE_FRAMES 12            /* the backtrace an edge remembers */

struct lock_class {
	const char *name;
	uint8_t kind;                 /* enum lock_kind */
	uint8_t subclass;
	bool in_irq;                  /* a spinlock taken by an interrupt handler... */
	bool irqs_on;                 /* ...and one taken with interrupts on: the two may not meet */
	uint64_t in_irq_ip, irqs_on_ip;
	int first_edge;               /* the edges from this class, linked by next; -1: none */
};

/* Class `from` was held when class `to` was taken: the first time, as seen. */
struct edge {
	uint16_t from, to;
	int next;
	int cpu;
	char task[TASK_NAME_LEN];
	int nr_held, nr_ips;
	uint16_t held[EDGE_HELD];     /* what was held then, oldest first (the newest few, if more) */
	uint64_t ips[EDGE_FRAMES];
};

struct key_slot {
	const char *name;             /* published last (release): the slot is then complete */
	uint16_t kind_sub, class;
};
struct edge_slot {
	uint32_t key;                 /* (from + 1) << 16 | (to + 1); 0: empty; published last */
	uint16_t edge;
};

struct cpu_locks {
	int depth;
	bool busy;                    /* inside the checker: its own printing takes no part */
	int faults_off;               /* lockdep_user_faults_off() calls not yet undone */
	struct held_lock held[CPU_DEPTH];
};

static struct lock_class classes[MAX_CLASSES];
static int nr_classes;
static struct key_slot keys[KEY_SLOTS];
static struct edge edges[MAX_EDGES];
static int nr_edges;
static struct edge_slot edge_slots[EDGE_SLOTS];
static struct cpu_locks cpu_locks[MAX_CPUS];
static int graph_lock_word;       /* a bare lock: the checker cannot check itself */

static bool reported;             /* the one report has been made */
static struct task *expecting;    /* lockdep_expect_reports(): this task's are counted */
static int expected_count;

static const char *const kind_names[] = { [LOCK_SPIN] = "spinlock", [LOCK_MUTEX] = "mutex" };

/* Called with interrupts off, so the holder cannot be interrupted into a wait for itself. */
static void graph_lock(void)
{
	while (__atomic_exchange_n(&graph_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void graph_unlock(void)
{
	__atomic_store_n(&graph_lock_word, 0, __ATOMIC_RELEASE);
}

static uint32_t hash_ptr(uintptr_t p, uint32_t extra)
{
	uint64_t h = ((uint64_t)p ^ extra) * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(h >> 40);
}

/* Claim the one report. In a test's expected run, count it instead. */
static bool report_begin(void)
{
	if (expecting && expecting == current() && !this_cpu()->in_irq) {
		expected_count++;
		return false;
	}
	if (__atomic_exchange_n(&reported, true, __ATOMIC_SEQ_CST))
		return false;
	__atomic_store_n(&lockdep_on, false, __ATOMIC_SEQ_CST);   /* quiet from now on, everywhere */
	return true;
}

/* A table is full: say so (as a warning, so a test run notices) and stop. */
static void out_of(const char *what)
{
	if (report_begin())
		pr_warn("lockdep: out of %s (kernel/debug/lockdep.c): checking stops", what);
}

static int key_lookup(const char *name, uint16_t kind_sub)
{
	for (uint32_t i = hash_ptr((uintptr_t)name, kind_sub), n = 0; n < KEY_SLOTS; i++, n++) {
		struct key_slot *k = &keys[i % KEY_SLOTS];
		const char *slot_name = __atomic_load_n(&k->name, __ATOMIC_ACQUIRE);
		if (!slot_name)
			return -1;
		if (slot_name == name && k->kind_sub == kind_sub)
			return k->class;
	}
	return -1;
}

/* A name's class, made on its first use (then under graph_lock). -1 if the table is full. */
static int class_of(const char *name, enum lock_kind kind, int subclass)
{
	uint16_t kind_sub = (uint16_t)(kind << 8 | (subclass & 0xff));
	int c = key_lookup(name, kind_sub);
	if (c >= 0)
		return c;

	graph_lock();
	c = key_lookup(name, kind_sub);               /* added meanwhile? */
	if (c < 0) {
		for (int i = 0; i < nr_classes && c < 0; i++)
			if (classes[i].kind == kind && classes[i].subclass == subclass &&
			    strcmp(classes[i].name, name) == 0)
				c = i;
		if (c < 0 && nr_classes < MAX_CLASSES) {
			c = nr_classes++;
			classes[c] = (struct lock_class){ .name = name, .kind = (uint8_t)kind,
							  .subclass = (uint8_t)subclass, .first_edge = -1 };
		}
		uint32_t i = hash_ptr((uintptr_t)name, kind_sub);
		for (int n = 0; c >= 0 && n < KEY_SLOTS; i++, n++) {
			struct key_slot *k = &keys[i % KEY_SLOTS];
			if (!k->name) {
				k->kind_sub = kind_sub;
				k->class = (uint16_t)c;
				__atomic_store_n(&k->name, name, __ATOMIC_RELEASE);
				break;
			}
		}
	}
	graph_unlock();
	if (c < 0)
		out_of("lock classes");
	return c;
}

static int edge_lookup(int from, int to)
{
	uint32_t key = (uint32_t)(from + 1) << 16 | (uint32_t)(to + 1);
	for (uint32_t i = hash_ptr(key, 0), n = 0; n < EDGE_SLOTS; i++, n++) {
		struct edge_slot *s = &edge_slots[i % EDGE_SLOTS];
		uint32_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (k == 0)
			return -1;
		if (k == key)
			return s->edge;
	}
	return -1;
}

/*
 * The locks held, newest first, as one list: the CPU's spinlocks, then (in
 * task context) the task's mutexes, which it took before them: a task
 * holding a spinlock takes no mutex (that is checked).
 */
struct held_view {
	struct cpu_locks *cpu;
	struct lockdep_task *task;        /* NULL in an interrupt handler or before the first task */
};

static int view_depth(const struct held_view *v)
{
	return v->cpu->depth + (v->task ? v->task->depth : 0);
}

static const struct held_lock *view_at(const struct held_view *v, int i)   /* 0: the newest */
{
	if (i < v->cpu->depth)
		return &v->cpu->held[v->cpu->depth - 1 - i];
	i -= v->cpu->depth;
	return &v->task->held[v->task->depth - 1 - i];
}

/* A path of edges from class src to class dst: breadth first, over the
 * edges each class has (bounded by the tables). Under graph_lock. Returns
 * its length (0: none), its edges in path[], first to last. */
static int find_path(int src, int dst, int *path, int max)
{
	static int parent_edge[MAX_CLASSES], queue[MAX_CLASSES];
	static uint32_t seen[MAX_CLASSES], generation;
	int head = 0, tail = 0;
	generation++;
	seen[src] = generation;
	queue[tail++] = src;
	while (head < tail) {
		int c = queue[head++];
		for (int e = classes[c].first_edge; e >= 0; e = edges[e].next) {
			int to = edges[e].to;
			if (seen[to] == generation)
				continue;
			seen[to] = generation;
			parent_edge[to] = e;
			if (to == dst) {
				int n = 0;
				for (int x = dst; x != src; x = edges[parent_edge[x]].from)
					n++;
				int len = n;
				for (int x = dst; x != src; x = edges[parent_edge[x]].from)
					if (--n < max)
						path[n] = parent_edge[x];
				return len;
			}
			queue[tail++] = to;
		}
	}
	return 0;
}

static void print_ip(const char *what, uint64_t ip)
{
	uint64_t offset;
	const char *fn = ksym_lookup(ip, &offset);
	if (fn)
		pr_warn("lockdep: %s %s+0x%llx", what, fn, (unsigned long long)offset);
	else
		pr_warn("lockdep: %s 0x%llx", what, (unsigned long long)ip);
}

static void print_class(const char *indent, int c)
{
	const struct lock_class *k = &classes[c];
	if (k->subclass)
		pr_warn("lockdep: %s'%s' (%s, nested %d)", indent, k->name, kind_names[k->kind], k->subclass);
	else
		pr_warn("lockdep: %s'%s' (%s)", indent, k->name, kind_names[k->kind]);
}

static int save_stack(uint64_t *ips, int max, uint64_t ip);

/* Where the checker was called from (ip: the lock function's caller), and what this CPU and task hold. */
static void print_here(const struct held_view *v, uint64_t ip)
{
	struct task *me = current();
	pr_warn("lockdep: on cpu%d, %s '%s', holding:", this_cpu()->id,
		this_cpu()->in_irq ? "in an interrupt of" : "task", me ? me->name : "(boot)");
	for (int i = view_depth(v) - 1; i >= 0; i--) {
		const struct held_lock *h = view_at(v, i);
		uint64_t offset;
		const char *fn = ksym_lookup(h->ip, &offset);
		const struct lock_class *k = &classes[h->class];
		pr_warn("lockdep:   '%s' (%s) taken at %s+0x%llx%s", k->name, kind_names[k->kind],
			fn ? fn : "?", (unsigned long long)(fn ? offset : h->ip), h->trylock ? " (trylock)" : "");
	}
	if (view_depth(v) == 0)
		pr_warn("lockdep:   nothing");
	uint64_t ips[24];
	int n = save_stack(ips, 24, ip);
	pr_warn("lockdep: backtrace:");
	backtrace_print_saved("lockdep:   ", ips, n);
}

static void print_edge(const struct edge *e)
{
	pr_warn("lockdep: '%s' taken while '%s' was held, first on cpu%d by task '%s', holding:",
		classes[e->to].name, classes[e->from].name, e->cpu, e->task);
	for (int i = 0; i < e->nr_held; i++)
		print_class("  ", e->held[i]);
	pr_warn("lockdep: backtrace:");
	backtrace_print_saved("lockdep:   ", e->ips, e->nr_ips);
}

static void report_inversion(const struct held_view *v, int held_class, int c, uint64_t ip,
			     const int *path, int len)
{
	if (!report_begin())
		return;
	pr_warn("lockdep: possible deadlock: lock order inversion between '%s' and '%s'",
		classes[held_class].name, classes[c].name);
	print_class("this CPU takes ", c);
	print_ip("at", ip);
	print_here(v, ip);
	pr_warn("lockdep: but the opposite order was seen before:");
	for (int i = 0; i < len && i < 4; i++)
		print_edge(&edges[path[i]]);
	pr_warn("lockdep: (one report per boot: checking is now off)");
}

/* Record that class from was held when class to was taken; report a cycle it closes. */
static void add_edge(const struct held_view *v, int from, int to, uint64_t ip)
{
	int path[8];
	graph_lock();
	if (edge_lookup(from, to) >= 0) {
		graph_unlock();
		return;
	}
	int len = find_path(to, from, path, 8);
	if (len > 0) {
		graph_unlock();
		report_inversion(v, from, to, ip, path, len);
		return;
	}
	if (nr_edges == MAX_EDGES) {
		graph_unlock();
		out_of("lock order edges");
		return;
	}
	int idx = nr_edges++;
	struct edge *e = &edges[idx];
	struct task *me = current();
	*e = (struct edge){ .from = (uint16_t)from, .to = (uint16_t)to, .cpu = this_cpu()->id };
	snprintf(e->task, sizeof(e->task), "%s", me ? me->name : "(boot)");
	int depth = view_depth(v);
	for (int i = depth < EDGE_HELD ? depth - 1 : EDGE_HELD - 1; i >= 0; i--)
		e->held[e->nr_held++] = view_at(v, i)->class;
	e->nr_ips = save_stack(e->ips, EDGE_FRAMES, ip);
	e->next = classes[from].first_edge;
	classes[from].first_edge = idx;

	uint32_t key = (uint32_t)(from + 1) << 16 | (uint32_t)(to + 1);
	for (uint32_t i = hash_ptr(key, 0), n = 0; n < EDGE_SLOTS; i++, n++) {
		struct edge_slot *s = &edge_slots[i % EDGE_SLOTS];
		if (!s->key) {
			s->edge = (uint16_t)idx;
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			break;
		}
	}
	graph_unlock();
}

/* Taking class c now: an edge from each lock held, newest first, down to
 * the first that was waited for (a trylock's holder waited for nothing, so
 * the order below it still counts). A class already held is taken nested:
 * without a subclass that is a deadlock when the two are one lock's order
 * reversed elsewhere, so it is reported too. */
static void check_order(const struct held_view *v, int c, uint64_t ip)
{
	for (int i = 0; i < view_depth(v) && lockdep_on; i++) {
		const struct held_lock *h = view_at(v, i);
		if (h->class == c) {
			if (report_begin()) {
				pr_warn("lockdep: possible deadlock: two locks of one class nested, with no order stated");
				print_class("this CPU takes ", c);
				print_ip("at", ip);
				print_here(v, ip);
				pr_warn("lockdep: (take the second with spin_lock_nested(), in an order every taker keeps)");
			}
			return;
		}
		if (edge_lookup(h->class, c) < 0)
			add_edge(v, h->class, c, ip);
		if (!h->trylock)
			break;
	}
}

/* Sleeping (what) is wrong in an interrupt handler, with a spinlock held or with interrupts off. */
static void check_may_sleep(const struct held_view *v, bool irqs_were_on, const char *what, uint64_t ip)
{
	const char *why = this_cpu()->in_irq ? "in an interrupt handler"
			: v->cpu->depth ? "with a spinlock held"
			: !irqs_were_on ? "with interrupts off" : NULL;
	if (!why || !report_begin())
		return;
	pr_warn("lockdep: %s, which may sleep, %s", what, why);
	print_ip("at", ip);
	print_here(v, ip);
}

/* A spinlock that an interrupt handler takes must be taken with interrupts
 * off everywhere: else the handler can interrupt its holder and spin forever. */
static void check_irq_usage(const struct held_view *v, int c, bool irqs_were_on, uint64_t ip)
{
	struct lock_class *k = &classes[c];
	bool bad;
	if (this_cpu()->in_irq) {
		if (!__atomic_load_n(&k->in_irq, __ATOMIC_RELAXED)) {
			k->in_irq_ip = ip;
			__atomic_store_n(&k->in_irq, true, __ATOMIC_RELEASE);
		}
		bad = __atomic_load_n(&k->irqs_on, __ATOMIC_ACQUIRE);
	} else if (irqs_were_on) {
		if (!__atomic_load_n(&k->irqs_on, __ATOMIC_RELAXED)) {
			k->irqs_on_ip = ip;
			__atomic_store_n(&k->irqs_on, true, __ATOMIC_RELEASE);
		}
		bad = __atomic_load_n(&k->in_irq, __ATOMIC_ACQUIRE);
	} else {
		return;
	}
	if (!bad || !report_begin())
		return;
	pr_warn("lockdep: possible deadlock: spinlock '%s' is taken in an interrupt handler and with interrupts on",
		k->name);
	print_ip("in an interrupt handler at", k->in_irq_ip);
	print_ip("with interrupts on at", k->irqs_on_ip);
	print_here(v, ip);
}

/* Enter the checker on this CPU: interrupts off, and not from its own printing. */
static struct cpu_locks *enter(uint64_t *flags)
{
	*flags = irq_save();
	struct cpu_locks *cl = &cpu_locks[this_cpu()->id];
	if (!__atomic_load_n(&lockdep_on, __ATOMIC_RELAXED) || cl->busy) {
		irq_restore(*flags);
		return NULL;
	}
	cl->busy = true;
	return cl;
}

static void leave(struct cpu_locks *cl, uint64_t flags)
{
	cl->busy = false;
	irq_restore(flags);
}

/* A backtrace from the lock function's caller on: the checker's own frames say nothing. */
static int save_stack(uint64_t *ips, int max, uint64_t ip)
{
	uint64_t all[32];
	int n = backtrace_save(all, 32), from = 0;
	for (int i = 0; i < n; i++)
		if (all[i] + 1 == ip) {
			from = i;
			break;
		}
	int kept = n - from < max ? n - from : max;
	memcpy(ips, all + from, (size_t)kept * sizeof(ips[0]));
	return kept;
}

static struct held_view view_of(struct cpu_locks *cl)
{
	struct task *me = current();
	return (struct held_view){ cl, me && !this_cpu()->in_irq ? &me->lockdep : NULL };
}

void lockdep_acquire(const void *lock, const char *name, enum lock_kind kind, int subclass, bool trylock,
		     uint64_t ip)
{
	uint64_t flags;
	struct cpu_locks *cl = enter(&flags);
	if (!cl)
		return;
	struct held_view v = view_of(cl);
	int c = class_of(name, kind, subclass);
	if (c >= 0) {
		bool irqs_were_on = flags & RFLAGS_IF;
		if (kind == LOCK_MUTEX && !trylock && current())
			check_may_sleep(&v, irqs_were_on, "mutex_lock", ip);
		if (kind == LOCK_SPIN)
			check_irq_usage(&v, c, irqs_were_on, ip);
		if (!trylock)
			check_order(&v, c, ip);
		int *depth = kind == LOCK_SPIN ? &cl->depth : v.task ? &v.task->depth : NULL;
		struct held_lock *stack = kind == LOCK_SPIN ? cl->held : v.task ? v.task->held : NULL;
		int max = kind == LOCK_SPIN ? CPU_DEPTH : LOCKDEP_TASK_DEPTH;
		if (depth && *depth == max)
			out_of(kind == LOCK_SPIN ? "held spinlocks (CPU_DEPTH)" : "held mutexes (LOCKDEP_TASK_DEPTH)");
		else if (depth)
			stack[(*depth)++] = (struct held_lock){ .lock = lock, .ip = ip, .class = (uint16_t)c,
								.trylock = trylock };
	}
	leave(cl, flags);
}

/* Usually the newest is let go; any may be. One not found was taken before checking began. */
void lockdep_release(const void *lock, enum lock_kind kind)
{
	uint64_t flags;
	struct cpu_locks *cl = enter(&flags);
	if (!cl)
		return;
	struct held_view v = view_of(cl);
	int *depth = kind == LOCK_SPIN ? &cl->depth : v.task ? &v.task->depth : NULL;
	struct held_lock *stack = kind == LOCK_SPIN ? cl->held : v.task ? v.task->held : NULL;
	for (int i = depth ? *depth - 1 : -1; i >= 0; i--) {
		if (stack[i].lock == lock) {
			memmove(&stack[i], &stack[i + 1], (size_t)(*depth - 1 - i) * sizeof(stack[0]));
			(*depth)--;
			break;
		}
	}
	leave(cl, flags);
}

void lockdep_might_sleep(const char *what, uint64_t ip)
{
	uint64_t flags;
	struct cpu_locks *cl = enter(&flags);
	if (!cl)
		return;
	struct held_view v = view_of(cl);
	if (current())                     /* boot runs with interrupts off, and sleeps on nothing */
		check_may_sleep(&v, flags & RFLAGS_IF, what, ip);
	leave(cl, flags);
}

/* A fault in user memory takes mm's lock (kernel/mm/mm.c: mm_fault()): a copy
 * counts as taking it, whether or not this one faults. A kernel task has no
 * user memory: its copy faults without any lock. */
void lockdep_might_fault(uint64_t ip)
{
	uint64_t flags;
	struct cpu_locks *cl = enter(&flags);
	if (!cl)
		return;
	struct held_view v = view_of(cl);
	if (current() && current()->process && !cl->faults_off) {
		check_may_sleep(&v, flags & RFLAGS_IF, "a user copy (a fault takes mm's lock)", ip);
		int c = class_of("mm", LOCK_MUTEX, 0);
		if (c >= 0 && lockdep_on)
			check_order(&v, c, ip);
	}
	leave(cl, flags);
}

void lockdep_user_faults_off(void)
{
	cpu_locks[this_cpu()->id].faults_off++;
}

void lockdep_user_faults_on(void)
{
	cpu_locks[this_cpu()->id].faults_off--;
}

void lockdep_expect_reports(bool on)
{
	expected_count = 0;
	__atomic_store_n(&expecting, on ? current() : NULL, __ATOMIC_SEQ_CST);
}

int lockdep_reports_expected(void)
{
	return expected_count;
}
