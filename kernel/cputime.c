#include "kernel/cputime.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/hooks.h"

void cputime_to_user(void)
{
	sched_current()->user_since = clock_ns();
}

void cputime_from_user(void)
{
	struct task *me = sched_current();
	uint64_t stretch = clock_ns() - me->user_since;
	__atomic_store_n(&me->user_ns, me->user_ns + stretch, __ATOMIC_RELAXED);
}

/* The hook (arch/x86_64/hooks.h): an interrupt or exception from ring 3. */
void enter_from_user(void)
{
	cputime_from_user();
}

struct cputime task_cputime(struct task *p)
{
	uint64_t total = task_sched_runtime(p), user = __atomic_load_n(&p->user_ns, __ATOMIC_RELAXED);
	/* Two clocks read at different moments: user may run a little ahead. */
	if (user > total)
		user = total;
	return (struct cputime){ user, total - user };
}
