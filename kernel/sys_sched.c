/*
 * The scheduling system calls: thin wrappers that copy arguments in and
 * out and call the scheduler's own interface (sched/api.h), which already
 * has Linux's meaning and error values. A pid is a thread's (a task's).
 */
#include "kernel/syscalls.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"
#include "lib/util.h"

/* Linux's flag to a policy: "children start as SCHED_NORMAL". Accepted, not yet honoured. */
#define SCHED_RESET_ON_FORK 0x40000000

static long get_param(uint64_t uaddr, struct sched_param *param)
{
	if (!uaddr)
		return -EINVAL;
	return copy_from_user(param, (const void *)uaddr, sizeof(*param));
}

long sys_sched_setscheduler(const uint64_t *arg)
{
	int pid = (int)arg[0], policy = (int)arg[1] & ~SCHED_RESET_ON_FORK;
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

/* Which tasks setpriority() and getpriority() mean. There are no process
 * groups and only one user (root) yet: a group or user of 0 is the caller. */
static int priority_target(uint64_t which, uint64_t who, int *pid)
{
	if (which > PRIO_USER)
		return -EINVAL;
	if (which != PRIO_PROCESS && who != 0)
		return -ESRCH;
	*pid = (int)who;
	return (int)who < 0 ? -ESRCH : 0;
}

long sys_setpriority(const uint64_t *arg)
{
	int pid, nice = (int)arg[2];
	int err = priority_target(arg[0], arg[1], &pid);
	if (err)
		return err;
	nice = nice < MIN_NICE ? MIN_NICE : nice > MAX_NICE ? MAX_NICE : nice;   /* Linux clamps */
	return sched_set_nice(pid, nice);
}

/* The system call returns 20 - nice (1..40): never negative, so never an error. */
long sys_getpriority(const uint64_t *arg)
{
	int pid, nice;
	int err = priority_target(arg[0], arg[1], &pid);
	if (!err)
		err = sched_get_nice(pid, &nice);
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
