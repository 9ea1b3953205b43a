/*
 * The machine and the caller: uname, sysinfo, getrandom, the user and
 * group ids, resource limits and usage, times. Everything runs as root
 * (uid and gid 0): there are no users yet.
 */
#include "kernel/syscalls.h"
#include "kernel/task/process.h"
#include "kernel/time/cputime.h"
#include "kernel/random.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/kthread.h"
#include "kernel/power.h"
#include "kernel/time/loadavg.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"
#include "lib/util.h"

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

/* The release is a Linux version: C libraries compare it with the oldest
 * kernel they support, and it is Linux's interface that leftmost offers. */
long sys_uname(const uint64_t *arg)
{
	static const struct utsname uts = {
		.sysname = "leftmost", .nodename = "leftmost", .release = "6.1.0-leftmost",
		.version = "#1", .machine = "x86_64", .domainname = "(none)",
	};
	return copy_to_user((void *)arg[0], &uts, sizeof(uts));
}

#define REBOOT_MAGIC1        0xfee1deadu
#define REBOOT_CMD_RESTART   0x01234567u
#define REBOOT_CMD_HALT      0xcdef0123u
#define REBOOT_CMD_POWER_OFF 0x4321fedcu
#define REBOOT_CMD_CAD_ON    0x89abcdefu
#define REBOOT_CMD_CAD_OFF   0u

/* reboot(2), Linux's way: two magic numbers guard against a stray call
 * (0xfee1dead, then one of four dates), then what to do. Power off and
 * restart happen at once: there is no disk to write back. */
long sys_reboot(const uint64_t *arg)
{
	static const uint32_t magic2[] = { 672274793, 85072278, 369367448, 537993216 };
	bool dated = false;
	for (size_t i = 0; i < ARRAY_SIZE(magic2); i++)
		dated |= (uint32_t)arg[1] == magic2[i];
	if ((uint32_t)arg[0] != REBOOT_MAGIC1 || !dated)
		return -EINVAL;
	switch ((uint32_t)arg[2]) {
	case REBOOT_CMD_CAD_ON:
	case REBOOT_CMD_CAD_OFF:                 /* Ctrl-Alt-Del means nothing on a serial console */
		return 0;
	case REBOOT_CMD_HALT:
	case REBOOT_CMD_POWER_OFF:
		pr_info("reboot: power down (asked by pid %d)", current()->process->pid);
		power_off();
	case REBOOT_CMD_RESTART:
		pr_info("reboot: restarting (asked by pid %d)", current()->process->pid);
		power_reboot();
	default:
		return -EINVAL;
	}
}

/* getuid, geteuid, getgid, getegid: root. */
long sys_get_id(const uint64_t *arg)
{
	(void)arg;
	return 0;
}

long sys_getrandom(const uint64_t *arg)
{
	enum { GRND_NONBLOCK = 1, GRND_RANDOM = 2, GRND_INSECURE = 4 };
	uint8_t chunk[256];
	uint64_t done = 0, len = MIN(arg[1], (uint64_t)INT32_MAX);   /* Linux's cap */
	if (arg[2] & ~(uint64_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	while (done < len) {
		size_t n = MIN(len - done, sizeof(chunk));
		random_fill(chunk, n);
		if (copy_to_user((void *)(arg[0] + done), chunk, n) < 0)
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

/* Linux's struct sysinfo on x86-64. */
struct user_sysinfo {
	int64_t uptime;
	uint64_t loads[3];
	uint64_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t pad2;
	uint64_t totalhigh, freehigh;
	uint32_t mem_unit;
	char reserved[4];
};

/* The load averages in 1/65536 (SI_LOAD_SHIFT). Free memory
 * counts what the kernel keeps only to reuse, as free: the room in
 * kmalloc's slabs and the freed kernel stacks it caches. Its own page
 * tables, which grow with the kernel stacks mapped at once and are kept,
 * are the "buffers". So free + buffers comes back to the byte once every
 * process has ended and been reaped (what user/bin/leakcheck.h checks),
 * however many ran at once. */
long sys_sysinfo(const uint64_t *arg)
{
	struct user_sysinfo info = {
		.uptime = (int64_t)(clock_ns() / NS_PER_S),
		.totalram = pmm_total_pages() * PAGE_SIZE,
		.freeram = (pmm_free_pages() + kstack_cached_pages()) * PAGE_SIZE + kmalloc_slab_free_bytes(),
		.bufferram = vmm_table_pages() * PAGE_SIZE,
		.procs = (uint16_t)MIN(tasks_alive(), 0xffff),
		.mem_unit = 1,
	};
	uint64_t loads[3];
	loadavg_read(loads);
	for (int i = 0; i < 3; i++)
		info.loads[i] = loads[i] << (16 - LOADAVG_SHIFT);
	return copy_to_user((void *)arg[0], &info, sizeof(info));
}

struct user_timeval {
	int64_t sec, usec;
};

struct user_rusage {
	struct user_timeval utime, stime;
	int64_t maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	int64_t msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

static struct user_timeval to_timeval(uint64_t ns)
{
	return (struct user_timeval){ (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S / NS_PER_US) };
}

/* User and system time as the tick sampled them (kernel/time/cputime.h). The
 * switches are the scheduler's own counts: a voluntary one is a sleep
 * (each ends in a wake-up), an involuntary one a preemption. */
long sys_getrusage(const uint64_t *arg)
{
	enum { RUSAGE_SELF = 0, RUSAGE_CHILDREN = -1, RUSAGE_THREAD = 1 };
	struct task *me = current();
	struct user_rusage ru = { .maxrss = 0 };
	struct cputime time;
	switch ((int)arg[0]) {
	case RUSAGE_SELF:
		time = process_self_cpu_time();
		ru.nvcsw = (int64_t)me->stats.nr_wakeups;     /* the calling thread's only, for now */
		ru.nivcsw = (int64_t)me->stats.nr_preemptions;
		break;
	case RUSAGE_THREAD:
		time = task_cputime(me);
		ru.nvcsw = (int64_t)me->stats.nr_wakeups;
		ru.nivcsw = (int64_t)me->stats.nr_preemptions;
		break;
	case RUSAGE_CHILDREN:
		time = process_children_cpu_time();
		break;
	default:
		return -EINVAL;
	}
	ru.utime = to_timeval(time.user_ns);
	ru.stime = to_timeval(time.system_ns);
	return copy_to_user((void *)arg[1], &ru, sizeof(ru));
}

#define USER_HZ 100                       /* the clock ticks of times() and AT_CLKTCK */

long sys_times(const uint64_t *arg)
{
	const uint64_t tick = NS_PER_S / USER_HZ;
	struct cputime mine = process_self_cpu_time(), children = process_children_cpu_time();
	struct { int64_t utime, stime, cutime, cstime; } t = {
		(int64_t)(mine.user_ns / tick), (int64_t)(mine.system_ns / tick),
		(int64_t)(children.user_ns / tick), (int64_t)(children.system_ns / tick),
	};
	if (arg[0] && copy_to_user((void *)arg[0], &t, sizeof(t)) < 0)
		return -EFAULT;
	return (long)(clock_ns() / (NS_PER_S / USER_HZ));
}

/* prlimit64(pid, resource, new, old); getrlimit and setrlimit are it for the caller. */
static long rlimit_call(int pid, uint64_t resource, uint64_t unew, uint64_t uold)
{
	struct rlimit new, old;
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (unew && copy_from_user(&new, (const void *)unew, sizeof(new)) < 0)
		return -EFAULT;
	long err = process_rlimit(pid, (int)resource, unew ? &new : NULL, &old);
	if (!err && uold && copy_to_user((void *)uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return err;
}

long sys_getrlimit(const uint64_t *arg)
{
	return rlimit_call(0, arg[0], 0, arg[1]);
}

long sys_setrlimit(const uint64_t *arg)
{
	return rlimit_call(0, arg[0], arg[1], 0);
}

long sys_prlimit64(const uint64_t *arg)
{
	return (int)arg[0] < 0 ? -EINVAL : rlimit_call((int)arg[0], arg[1], arg[2], arg[3]);
}
