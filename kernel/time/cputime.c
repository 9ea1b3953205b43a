#include "kernel/time/cputime.h"
#include "kernel/task/kthread.h"
#include "kernel/percpu.h"
#include "sched/api.h"
#include "sched/platform.h"

void cputime_tick(bool from_user, uint64_t periods)
{
	struct task *me = current();
	struct cpu *cpu = this_cpu();
	if (task_is_idle(me))
		return;
	__atomic_fetch_add(from_user ? &me->user_ticks : &me->system_ticks, periods, __ATOMIC_RELAXED);
	uint64_t *cpu_ticks = !from_user ? &cpu->system_ticks : me->nice > 0 ? &cpu->nice_ticks : &cpu->user_ticks;
	__atomic_fetch_add(cpu_ticks, periods, __ATOMIC_RELAXED);
}

/* total * part / whole, without 128-bit division (there is none in a
 * freestanding kernel): the counts are cut to 32 bits first, which costs
 * no precision that a tick's sampling has. */
static uint64_t share(uint64_t total, uint64_t part, uint64_t whole)
{
	while (whole >> 32) {
		part >>= 1;
		whole >>= 1;
	}
	return total / whole * part + total % whole * part / whole;
}

struct cputime task_cputime(struct task *p)
{
	uint64_t total = task_sched_runtime(p);
	uint64_t user_ticks = __atomic_load_n(&p->user_ticks, __ATOMIC_RELAXED);
	uint64_t system_ticks = __atomic_load_n(&p->system_ticks, __ATOMIC_RELAXED);
	uint64_t user = system_ticks == 0 ? total : share(total, user_ticks, user_ticks + system_ticks);

	/* Neither part goes back on what the last call told: the total
	 * only grows, so there is room for both. */
	uint64_t flags = spin_lock_irqsave(&p->cputime_lock);
	if (total < p->told_user_ns + p->told_system_ns)      /* two CPUs' clocks, a hair apart */
		total = p->told_user_ns + p->told_system_ns;
	if (user > total)
		user = total;
	uint64_t system = total - user;
	if (system < p->told_system_ns)
		system = p->told_system_ns;
	user = total - system;
	if (user < p->told_user_ns) {
		user = p->told_user_ns;
		system = total - user;
	}
	p->told_user_ns = user;
	p->told_system_ns = system;
	spin_unlock_irqrestore(&p->cputime_lock, flags);
	return (struct cputime){ user, system };
}
