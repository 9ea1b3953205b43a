/*
 * The scheduling system calls: thin wrappers that copy arguments in and
 * out and call the scheduler's own interface (sched/api.h), which already
 * has Linux's meaning and error values. A pid is a thread's (a task's).
 */
#include "kernel/syscalls.h"
#include "kernel/errno.h"
#include "kernel/task/process.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"
#include "lib/util.h"
#include "lib/time_units.h"
#include "arch/x86_64/memlayout.h"

static long get_param(uint64_t uaddr, struct sched_param *param)
{
	if (!uaddr)
		return -EINVAL;
	return copy_from_user(param, (const void *)uaddr, sizeof(*param));
}

long sys_sched_setscheduler(const uint64_t *arg)
{
	int pid = (int)arg[0], policy = (int)arg[1];
	struct sched_param param;
	if (pid < 0 || (int)arg[1] < 0)
		return -EINVAL;
	long err = get_param(arg[2], &param);
	return err ? err : sched_setscheduler(pid, policy, &param);
}

long sys_sched_getscheduler(const uint64_t *arg)
{
	return (int)arg[0] < 0 ? -EINVAL : sched_getscheduler((int)arg[0]);
}

long sys_sched_setparam(const uint64_t *arg)
{
	int pid = (int)arg[0];
	struct sched_param param;
	if (pid < 0)
		return -EINVAL;
	long err = get_param(arg[1], &param);
	if (err)
		return err;
	int policy = sched_getscheduler(pid);
	return policy < 0 ? policy : sched_setscheduler(pid, policy, &param);
}

long sys_sched_getparam(const uint64_t *arg)
{
	int pid = (int)arg[0];
	struct sched_param param;
	if (pid < 0 || !arg[1])
		return -EINVAL;
	int err = sched_getparam(pid, &param);
	return err ? err : copy_to_user((void *)arg[1], &param, sizeof(param));
}

long sys_sched_get_priority_max(const uint64_t *arg)
{
	return sched_get_priority_max((int)arg[0]);
}

long sys_sched_get_priority_min(const uint64_t *arg)
{
	return sched_get_priority_min((int)arg[0]);
}

long sys_sched_yield(const uint64_t *arg)
{
	(void)arg;
	return sched_yield();
}

/* The kernel's CPU masks are one 64-bit word: Linux's cpumask_size() here. */
long sys_sched_setaffinity(const uint64_t *arg)
{
	int pid = (int)arg[0];
	cpumask_t mask = 0;
	/* A shorter mask is zero-extended; a longer one's extra CPUs do not exist. */
	if (copy_from_user(&mask, (const void *)arg[2], MIN(arg[1], sizeof(mask))) < 0)
		return -EFAULT;
	if (pid < 0)
		return -ESRCH;
	return sched_setaffinity(pid, mask);
}

long sys_sched_getaffinity(const uint64_t *arg)
{
	int pid = (int)arg[0];
	uint64_t len = arg[1];
	cpumask_t mask;
	if (len * 8 < (uint64_t)sched_nr_cpus() || len % sizeof(long))
		return -EINVAL;
	if (pid < 0)
		return -ESRCH;
	int err = sched_getaffinity(pid, &mask);
	if (err)
		return err;
	/* A task may be allowed every CPU there could be; a program counts the
	 * CPUs it may use here (sysconf(_SC_NPROCESSORS_ONLN) does). */
	for (int cpu = 0; cpu < 64; cpu++)
		if (cpu >= sched_nr_cpus() || !sched_cpu_online(cpu))
			mask &= ~(1ULL << cpu);
	if (copy_to_user((void *)arg[2], &mask, sizeof(mask)) < 0)
		return -EFAULT;
	return sizeof(mask);
}

enum { PRIO_PROCESS = 0, PRIO_PGRP = 1, PRIO_USER = 2 };

/* setpriority() and getpriority(): one thread (PRIO_PROCESS: a pid is a
 * thread's, 0 the caller), a process group's threads, or a user's, and
 * everything is root's (uid 0): the user 0 has them all, any other none.
 * *nice is set if `set`, else told: the lowest (most favoured) of them. */
static int priority(uint64_t which, uint64_t who, bool set, int *nice)
{
	int id = (int)who;
	if (which > PRIO_USER)
		return -EINVAL;
	if (id < 0 || (which == PRIO_USER && id != 0))
		return -ESRCH;
	if (which != PRIO_PROCESS)
		return process_nice(which == PRIO_USER, id, set, *nice, nice);
	return set ? sched_set_nice(id, *nice) : sched_get_nice(id, nice);
}

long sys_setpriority(const uint64_t *arg)
{
	int nice = (int)arg[2];
	nice = nice < MIN_NICE ? MIN_NICE : nice > MAX_NICE ? MAX_NICE : nice;   /* Linux clamps */
	return priority(arg[0], arg[1], true, &nice);
}

/* The system call returns 20 - nice (1..40): never negative, so never an error. */
long sys_getpriority(const uint64_t *arg)
{
	int nice = 0;
	int err = priority(arg[0], arg[1], false, &nice);
	return err ? err : 20 - nice;
}

long sys_getcpu(const uint64_t *arg)
{
	unsigned cpu = (unsigned)sched_this_cpu(), node = 0;
	if (arg[0] && copy_to_user((void *)arg[0], &cpu, sizeof(cpu)) < 0)
		return -EFAULT;
	if (arg[1] && copy_to_user((void *)arg[1], &node, sizeof(node)) < 0)
		return -EFAULT;
	return 0;
}

long sys_sched_rr_get_interval(const uint64_t *arg)
{
	uint64_t ns;
	if ((int)arg[0] < 0)
		return -EINVAL;
	int err = sched_rr_get_interval((int)arg[0], &ns);
	if (err)
		return err;
	struct { int64_t sec, nsec; } ts = { (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S) };
	return copy_to_user((void *)arg[1], &ts, sizeof(ts));
}

/* Linux's struct sched_attr: its first version (48 bytes) and the
 * utilization clamps of the second (56), which are kept as zero. */
struct sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;       /* SCHED_DEADLINE's: not offered */
	uint32_t util_min, util_max;
};
#define SCHED_ATTR_SIZE_VER0 48
enum { SCHED_FLAG_RESET_ON_FORK = 1 };

/* The attributes from user memory, sized as the caller says (Linux's
 * rules: too small is EINVAL; larger is E2BIG, with our size written
 * back, unless the rest is zero). */
static long get_attr(uint64_t uaddr, struct sched_attr *attr)
{
	uint32_t size;
	if (!uaddr || copy_from_user(&size, (const void *)uaddr, sizeof(size)) < 0)
		return uaddr ? -EFAULT : -EINVAL;
	if (size == 0)
		size = SCHED_ATTR_SIZE_VER0;
	if (size < SCHED_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;
	*attr = (struct sched_attr){ .size = 0 };
	if (copy_from_user(attr, (const void *)uaddr, MIN(size, sizeof(*attr))) < 0)
		return -EFAULT;
	for (uint32_t at = sizeof(*attr); at < size; at++) {
		uint8_t byte;
		if (copy_from_user(&byte, (const void *)(uaddr + at), 1) < 0)
			return -EFAULT;
		if (byte)
			goto too_big;
	}
	return 0;
too_big:
	size = sizeof(*attr);
	return copy_to_user((void *)uaddr, &size, sizeof(size)) < 0 ? -EFAULT : -E2BIG;
}

long sys_sched_setattr(const uint64_t *arg)
{
	int pid = (int)arg[0];
	struct sched_attr attr;
	if (pid < 0 || arg[2])
		return -EINVAL;
	long err = get_attr(arg[1], &attr);
	if (err)
		return err;
	if (attr.flags & ~(uint64_t)SCHED_FLAG_RESET_ON_FORK || (int)attr.policy < 0)
		return -EINVAL;
	int policy = (int)attr.policy | (attr.flags & SCHED_FLAG_RESET_ON_FORK ? SCHED_RESET_ON_FORK : 0);
	struct sched_param param = { (int)attr.priority };
	err = sched_setscheduler(pid, policy, &param);
	/* The nice level counts for the fair policies only; Linux clamps it. */
	if (!err && (attr.policy == SCHED_NORMAL || attr.policy == SCHED_BATCH || attr.policy == SCHED_IDLE))
		err = sched_set_nice(pid, attr.nice < MIN_NICE ? MIN_NICE : attr.nice > MAX_NICE ? MAX_NICE : attr.nice);
	return err;
}

long sys_sched_getattr(const uint64_t *arg)
{
	int pid = (int)arg[0];
	uint32_t size = (uint32_t)arg[2];
	if (pid < 0 || !arg[1] || arg[3] || size < SCHED_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		return -EINVAL;
	struct sched_param param;
	int policy = sched_getscheduler(pid), nice = 0;
	if (policy < 0)
		return policy;
	sched_getparam(pid, &param);
	sched_get_nice(pid, &nice);
	struct sched_attr attr = {
		.size = (uint32_t)MIN(size, sizeof(attr)), .policy = (uint32_t)(policy & ~SCHED_RESET_ON_FORK),
		.flags = policy & SCHED_RESET_ON_FORK ? SCHED_FLAG_RESET_ON_FORK : 0,
		.nice = nice, .priority = (uint32_t)param.sched_priority,
	};
	return copy_to_user((void *)arg[1], &attr, attr.size);
}
