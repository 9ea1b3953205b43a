/*
 * The signal system calls: copying arguments in and out, and Linux's
 * checks on them; kernel/task/signal/signal.c does the work.
 */
#include "kernel/syscalls.h"
#include "kernel/task/signal/signal.h"
#include "kernel/task/process.h"
#include "kernel/task/thread.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "sched/wait.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"

/* Every call that takes a signal set takes its size too: one 64-bit word. */
static bool bad_set_size(uint64_t size)
{
	return size != sizeof(sigset_t);
}

long sys_rt_sigaction(const uint64_t *arg)
{
	struct k_sigaction act, old;
	if (bad_set_size(arg[3]))
		return -EINVAL;
	if (arg[1] && copy_from_user(&act, (const void *)arg[1], sizeof(act)) < 0)
		return -EFAULT;
	long err = signal_action((int)arg[0], arg[1] ? &act : NULL, arg[2] ? &old : NULL);
	if (!err && arg[2] && copy_to_user((void *)arg[2], &old, sizeof(old)) < 0)
		return -EFAULT;
	return err;
}

long sys_rt_sigprocmask(const uint64_t *arg)
{
	enum { SIG_BLOCK = 0, SIG_UNBLOCK = 1, SIG_SETMASK = 2 };
	sigset_t set, old = current()->thread->blocked;
	if (bad_set_size(arg[3]))
		return -EINVAL;
	if (arg[1]) {
		if (copy_from_user(&set, (const void *)arg[1], sizeof(set)) < 0)
			return -EFAULT;
		switch (arg[0]) {
		case SIG_BLOCK:   signal_set_blocked(old | set); break;
		case SIG_UNBLOCK: signal_set_blocked(old & ~set); break;
		case SIG_SETMASK: signal_set_blocked(set); break;
		default:          return -EINVAL;
		}
	}
	if (arg[2] && copy_to_user((void *)arg[2], &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_rt_sigreturn(const uint64_t *arg)
{
	(void)arg;
	return signal_return(arch_user_regs(current()->kstack_top));
}

long sys_rt_sigpending(const uint64_t *arg)
{
	if (arg[1] > sizeof(sigset_t))
		return -EINVAL;               /* Linux takes a smaller size, never a larger one */
	sigset_t pending = signal_pending_set() & current()->thread->blocked;
	return copy_to_user((void *)arg[0], &pending, arg[1]);
}

long sys_rt_sigsuspend(const uint64_t *arg)
{
	sigset_t mask;
	if (bad_set_size(arg[1]))
		return -EINVAL;
	if (copy_from_user(&mask, (const void *)arg[0], sizeof(mask)) < 0)
		return -EFAULT;
	return signal_suspend(mask);
}

long sys_pause(const uint64_t *arg)
{
	(void)arg;
	return signal_suspend(current()->thread->blocked);
}

long sys_sigaltstack(const uint64_t *arg)
{
	struct thread *t = current()->thread;
	uint64_t sp = arch_user_regs(current()->kstack_top)->rsp;
	struct user_stack old = signal_altstack(t, sp), new;
	if (arg[0]) {
		if (copy_from_user(&new, (const void *)arg[0], sizeof(new)) < 0)
			return -EFAULT;
		long err = signal_set_altstack(t, &new, sp);
		if (err)
			return err;
	}
	if (arg[1] && copy_to_user((void *)arg[1], &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_tkill(const uint64_t *arg)
{
	return (int)arg[0] <= 0 ? -EINVAL : process_kill_thread(0, (int)arg[0], (int)arg[1]);
}

long sys_tgkill(const uint64_t *arg)
{
	if ((int)arg[0] <= 0 || (int)arg[1] <= 0)
		return -EINVAL;
	return process_kill_thread((int)arg[0], (int)arg[1], (int)arg[2]);
}

struct user_timeval {
	int64_t sec, usec;
};
struct user_itimerval {
	struct user_timeval interval, value;
};

enum { ITIMER_REAL = 0, ITIMER_VIRTUAL = 1, ITIMER_PROF = 2 };

static uint64_t timeval_ns(struct user_timeval tv)
{
	return (uint64_t)tv.sec * NS_PER_S + (uint64_t)tv.usec * NS_PER_US;
}

static struct user_timeval ns_timeval(uint64_t ns)
{
	return (struct user_timeval){ (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S / NS_PER_US) };
}

static bool bad_timeval(struct user_timeval tv)
{
	return tv.sec < 0 || tv.usec < 0 || tv.usec >= 1000000 || tv.sec > (int64_t)(UINT64_MAX / NS_PER_S / 4);
}

/* ITIMER_REAL only: the CPU-time timers need the tick to count user time. */
long sys_setitimer(const uint64_t *arg)
{
	struct user_itimerval new, old;
	uint64_t old_value, old_interval;
	if (arg[0] != ITIMER_REAL)
		return -EINVAL;
	if (arg[1] && copy_from_user(&new, (const void *)arg[1], sizeof(new)) < 0)
		return -EFAULT;
	if (!arg[1])
		new = (struct user_itimerval){ { 0, 0 }, { 0, 0 } };   /* Linux: NULL disarms */
	if (bad_timeval(new.value) || bad_timeval(new.interval))
		return -EINVAL;
	signal_alarm(timeval_ns(new.value), timeval_ns(new.interval), &old_value, &old_interval);
	old = (struct user_itimerval){ ns_timeval(old_interval), ns_timeval(old_value) };
	if (arg[2] && copy_to_user((void *)arg[2], &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_getitimer(const uint64_t *arg)
{
	if (arg[0] != ITIMER_REAL)
		return -EINVAL;
	uint64_t value, interval;
	signal_alarm_get(&value, &interval);
	struct user_itimerval cur = { ns_timeval(interval), ns_timeval(value) };
	return copy_to_user((void *)arg[1], &cur, sizeof(cur));
}

/* alarm(seconds): the seconds the last one still had, rounded as Linux does. */
long sys_alarm(const uint64_t *arg)
{
	uint64_t old_value, old_interval;
	signal_alarm((arg[0] & 0xffffffff) * NS_PER_S, 0, &old_value, &old_interval);
	uint64_t seconds = old_value / NS_PER_S;
	if (old_value % NS_PER_S >= NS_PER_S / 2 || (old_value && !seconds))
		seconds++;
	return (long)seconds;
}
