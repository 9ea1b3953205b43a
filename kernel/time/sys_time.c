/*
 * The time system calls. Every clock is read from clock_ns(), the TSC in
 * nanoseconds: the monotonic ones as they are, the real-time one from the
 * RTC's date at boot on (kernel/time/realtime.c), and the CPU-time clocks from
 * the scheduler's own accounting (task_sched_runtime), to the nanosecond,
 * split into user and system time by the tick's samples (kernel/time/cputime.h).
 */
#include "kernel/syscalls.h"
#include "kernel/time/realtime.h"
#include "kernel/task/process.h"
#include "kernel/time/cputime.h"
#include "kernel/time/tick.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "sched/wait.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/user.h"
#include "lib/time_units.h"

enum {
	CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_PROCESS_CPUTIME_ID = 2, CLOCK_THREAD_CPUTIME_ID = 3,
	CLOCK_MONOTONIC_RAW = 4, CLOCK_REALTIME_COARSE = 5, CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7,
};
enum { TIMER_ABSTIME = 1 };

/* A CPU-time clock id, as clock_getcpuclockid() makes it (Linux's encoding):
 * the pid, complemented, above three bits: 4 for a thread's clock, and in
 * the low two the kind, of which only 2 (the scheduler's count) is used here. */
#define CPUCLOCK_PID(id)     ((int)~((id) >> 3))
#define CPUCLOCK_PERTHREAD 4
#define CPUCLOCK_KIND(id)    ((id) & 3)
#define CPUCLOCK_KINDS       3            /* 0 user+system, 1 user, 2 scheduler; 3 is no kind */

struct user_timespec {
	int64_t sec, nsec;
};

/* The kinds of CPU-time clock: user and system time, user time only, and
 * the scheduler's count (the same sum, unsampled). */
enum { CPUCLOCK_PROF = 0, CPUCLOCK_VIRT = 1, CPUCLOCK_SCHED = 2 };

/* The CPU time of the thread or process a CPU-time clock names. A thread's
 * clock only within the caller's own process (Linux's rule). */
static int cpu_clock_read(int64_t id, uint64_t *ns)
{
	int pid = CPUCLOCK_PID(id), kind = CPUCLOCK_KIND(id);
	struct task *me = current();
	struct cputime time;
	if (kind >= CPUCLOCK_KINDS || pid < 0)
		return -EINVAL;
	if (id & CPUCLOCK_PERTHREAD) {
		if (pid == 0)
			time = task_cputime(me);
		else if (process_thread_cpu_time(pid, &time) < 0)
			return -EINVAL;
	} else if (pid == 0) {
		time = process_self_cpu_time();
	} else if (process_cpu_time(pid, &time) < 0) {
		return -EINVAL;
	}
	*ns = kind == CPUCLOCK_VIRT ? time.user_ns : time.user_ns + time.system_ns;
	return 0;
}

static int clock_read(int64_t id, uint64_t *ns)
{
	if (id < 0)
		return cpu_clock_read(id, ns);
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		*ns = realtime_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:              /* the machine never suspends */
		*ns = clock_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID: {
		struct cputime time = process_self_cpu_time();
		*ns = time.user_ns + time.system_ns;
		return 0;
	}
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = task_sched_runtime(current());
		return 0;
	default:
		return -EINVAL;
	}
}

static struct user_timespec to_timespec(uint64_t ns)
{
	return (struct user_timespec){ (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S) };
}

int put_timespec(uint64_t uaddr, uint64_t ns)
{
	struct user_timespec ts = to_timespec(ns);
	return copy_to_user((void *)uaddr, &ts, sizeof(ts));
}

int get_timespec(uint64_t uaddr, uint64_t *ns)
{
	struct user_timespec ts;
	if (copy_from_user(&ts, (const void *)uaddr, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= (int64_t)NS_PER_S)
		return -EINVAL;
	*ns = (uint64_t)ts.sec >= FOREVER_NS / NS_PER_S ? FOREVER_NS : (uint64_t)ts.sec * NS_PER_S + (uint64_t)ts.nsec;
	return 0;
}

long sys_clock_gettime(const uint64_t *arg)
{
	uint64_t ns;
	int err = clock_read((int64_t)arg[0], &ns);
	return err ? err : put_timespec(arg[1], ns);
}

long sys_clock_getres(const uint64_t *arg)
{
	int64_t id = (int64_t)arg[0];
	uint64_t ns;
	int err = clock_read(id, &ns);        /* only to check the clock exists */
	if (err)
		return err;
	bool coarse = id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE;
	/* The coarse clocks are Linux's tick-grained ones; here every clock
	 * counts nanoseconds, but a program told 1 ns of those expects less. */
	uint64_t res = coarse ? NS_PER_S / tick_hz() : 1;
	return arg[1] ? put_timespec(arg[1], res) : 0;
}

/* Sleep until the clock reads `until` (not a CPU-time clock). A signal
 * whose handler is to run cuts it short: -EINTR, and the time that was
 * left goes to urem (if not 0: relative sleeps). */
static long sleep_until(int64_t id, uint64_t until, uint64_t urem)
{
	uint64_t now, left;
	int err = clock_read(id, &now);
	if (err || until <= now)
		return err;
	if (sleep_ns_interruptible(until - now, &left) == 0)
		return 0;
	if (urem && put_timespec(urem, left) < 0)
		return -EFAULT;
	return -EINTR;
}

long sys_clock_nanosleep(const uint64_t *arg)
{
	int64_t id = (int64_t)arg[0];
	uint64_t ns, now;
	int err = clock_read(id, &now);
	if (err || id < 0 || id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID)
		return -EINVAL;               /* no such clock, or a CPU-time one: not yet */
	if (id == CLOCK_MONOTONIC_RAW || id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE)
		return -EOPNOTSUPP;           /* as Linux: these cannot be slept on */
	if ((err = get_timespec(arg[2], &ns)))
		return err;
	if (arg[1] & TIMER_ABSTIME)
		return sleep_until(id, ns, 0);
	return sleep_until(id, now + ns, arg[3]);
}

long sys_nanosleep(const uint64_t *arg)
{
	uint64_t ns;
	int err = get_timespec(arg[0], &ns);
	return err ? err : sleep_until(CLOCK_MONOTONIC, clock_ns() + ns, arg[1]);
}

long sys_gettimeofday(const uint64_t *arg)
{
	struct { int64_t sec, usec; } tv;
	uint64_t ns = realtime_ns();
	tv.sec = (int64_t)(ns / NS_PER_S);
	tv.usec = (int64_t)(ns % NS_PER_S / NS_PER_US);
	if (arg[0] && copy_to_user((void *)arg[0], &tv, sizeof(tv)) < 0)
		return -EFAULT;
	static const int32_t utc[2] = { 0, 0 };   /* minutes west of Greenwich, DST: none */
	if (arg[1] && copy_to_user((void *)arg[1], utc, sizeof(utc)) < 0)
		return -EFAULT;
	return 0;
}

long sys_time(const uint64_t *arg)
{
	int64_t seconds = (int64_t)(realtime_ns() / NS_PER_S);
	if (arg[0] && copy_to_user((void *)arg[0], &seconds, sizeof(seconds)) < 0)
		return -EFAULT;
	return seconds;
}
