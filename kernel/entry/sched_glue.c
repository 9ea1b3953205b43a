/* The kernel's side of sched/platform.h. */
#include "sched/platform.h"
#include "sched/task.h"
#include "kernel/percpu.h"
#include "kernel/task/process.h"
#include "kernel/mm/mm.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"
#include "kernel/panic.h"
#include "kernel/debug/lockdep.h"
#include "lib/printf.h"
#include <stdarg.h>

uint64_t sched_clock(void) { return clock_ns(); }
int sched_this_cpu(void) { return this_cpu()->id; }
int sched_nr_cpus(void) { return nr_cpus; }
bool sched_cpu_online(int cpu) { return cpu >= 0 && cpu < nr_cpus && cpu_online(cpu); }
bool sched_irqs_enabled(void) { return irqs_enabled(); }
bool sched_in_interrupt(void) { return this_cpu()->in_irq; }
uint64_t sched_irq_save(void) { return irq_save(); }
void sched_irq_restore(uint64_t flags) { irq_restore(flags); }
void sched_cpu_relax(void) { cpu_relax(); }

void sched_send_resched(int cpu)
{
	lapic_send_ipi(cpus[cpu].apic_id, VEC_RESCHEDULE);
}

/* The CPU leaves prev (NULL at boot) for next, with interrupts off. A user
 * task takes its x87/SSE registers along, and brings where ring 3 enters
 * the kernel (its own stack), its page tables and its thread pointer. The
 * FS base needs no saving, as only arch_prctl() changes it, and that
 * records it in the task.
 *
 * A kernel task runs on whatever tables are loaded, as Linux's lazy TLB
 * (mm_switch_to()): the kernel half is in every one, and when the CPU goes
 * back to the same program (a process that slept while its CPU idled) no
 * CR3 write throws its TLB away. */
static void switch_user_state(struct task *prev, struct task *next)
{
	assert_irqs_off();
	if (prev && prev->process)
		fpu_save(prev->fpu);
	if (!next->process) {
		mm_switch_to(NULL);
		return;
	}
	arch_set_kernel_stack((uint64_t)next->kstack_top);
	mm_switch_to(next->process->mm);
	arch_set_fs_base(next->fs_base);
	fpu_restore(next->fpu);
}

void sched_set_current(struct task *p)
{
	struct cpu *c = this_cpu();
	switch_user_state(c->current, p);
	c->current = p;
	c->context = p->name;
}

void sched_bug(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	panic("sched: %s", msg);
}

void sched_mutex_acquire(struct mutex *m, bool trylock, uint64_t ip)
{
	if (lockdep_on)
		lockdep_acquire(m, m->wq.lock.name, LOCK_MUTEX, 0, trylock, ip);
}

void sched_mutex_release(struct mutex *m)
{
	if (lockdep_on)
		lockdep_release(m, LOCK_MUTEX);
}

void sched_might_sleep(const char *what, uint64_t ip)
{
	if (lockdep_on)
		lockdep_might_sleep(what, ip);
}
