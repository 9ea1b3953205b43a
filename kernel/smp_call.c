/*
 * Running a function on another CPU, or on every CPU, through an IPI
 * (smp_call_on_cpu: TLB shootdowns, the lock checker, the tests), and the
 * reschedule IPI's handler.
 */
#include "kernel/smp_call.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "sched/preempt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"

/* One mailbox per CPU for smp_call_on_cpu(). */
struct call_request {
	struct spinlock lock;         /* one caller at a time */
	void (*fn)(void *);
	void *arg;
	bool done;                            /* atomic: the caller waits on it */
};
static struct call_request call_requests[MAX_CPUS];

static void call_function_irq(struct trap_frame *frame)
{
	(void)frame;
	struct call_request *r = &call_requests[this_cpu()->id];
	if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
		return;                   /* a resent IPI whose request already ran */
	r->fn(r->arg);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
}

static void post_request(int cpu, void (*fn)(void *), void *arg)
{
	struct call_request *r = &call_requests[cpu];
	/* smp_call_on_each_cpu() holds every mailbox, taken in CPU order:
	 * each CPU's is a subclass of its own (kernel/debug/lockdep.h). */
	spin_lock_nested(&r->lock, cpu);
	r->fn = fn;
	r->arg = arg;
	r->done = false;
	lapic_send_ipi(cpus[cpu].apic_id, VEC_CALL_FUNCTION);
}

/* An IPI is answered within microseconds unless it was lost, or the
 * emulator's host has not run that CPU for a while (4 virtual CPUs on 2
 * busy cores: 100 ms happens). So it is sent again every 100 ms quietly,
 * and a wait is worth a warning only after 5 s (Linux's csd_lock_timeout). */
#define CALL_RESEND_NS 100000000ULL
#define CALL_WARN_NS   5000000000ULL

static void await_request(int cpu)
{
	struct call_request *r = &call_requests[cpu];
	uint64_t start = clock_ns(), resend_at = start + CALL_RESEND_NS;
	bool said = false;
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (clock_ns() > resend_at) {
			if (!said && clock_ns() - start > CALL_WARN_NS) {
				pr_warn("smp: cpu%d has not answered a call IPI for 5 s (sent again every 100 ms)", cpu);
				said = true;
			}
			lapic_send_ipi(cpus[cpu].apic_id, VEC_CALL_FUNCTION);
			resend_at = clock_ns() + CALL_RESEND_NS;
		}
		cpu_relax();
	}
	spin_unlock(&r->lock);
}

static void call_here(void (*fn)(void *), void *arg)
{
	uint64_t flags = irq_save();     /* as if from the IPI handler */
	fn(arg);
	irq_restore(flags);
}

void smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	preempt_disable();                /* "this CPU" must stay this CPU */
	if (cpu == this_cpu()->id) {
		call_here(fn, arg);
	} else {
		post_request(cpu, fn, arg);
		await_request(cpu);
	}
	preempt_enable();
}

/* All CPUs run fn at the same time: post every request, run it here, then
 * wait for the others. */
void smp_call_on_each_cpu(void (*fn)(void *), void *arg)
{
	preempt_disable();
	int me = this_cpu()->id;
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_online(i) && i != me)
			post_request(i, fn, arg);
	call_here(fn, arg);
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_online(i) && i != me)
			await_request(i);
	preempt_enable();
}

/* Nothing to do: the way out of the interrupt reschedules (irq_exit(), kernel/entry/irq.c). */
static void reschedule_irq(struct trap_frame *frame)
{
	(void)frame;
}

void smp_init_ipis(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		call_requests[i].lock = (struct spinlock)SPINLOCK_INIT("call_request");
	irq_register(VEC_CALL_FUNCTION, call_function_irq);
	irq_register(VEC_RESCHEDULE, reschedule_irq);
}
