/*
 * /proc's files about the machine and the scheduler, in Linux's formats
 * (proc(5)): stat, uptime, loadavg, meminfo, cpuinfo, cmdline, version,
 * sched_debug (CFS v2's runqueue dump) and schedstat (sched/debug.c), and in
 * /proc/sys/kernel every tunable (kernel/sysctl.h), readable and writable
 * with the range the boot parameter has.
 */
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/proc/proc_nodes.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/sysctl.h"
#include "kernel/time/loadavg.h"
#include "kernel/percpu.h"
#include "kernel/multiboot.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/page_owner.h"
#include "kernel/ksyms.h"
#include "kernel/mm/vmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/tick.h"
#include "kernel/task/kthread.h"
#include "kernel/time/realtime.h"
#include "arch/x86_64/cpu.h"
#include "kernel/errno.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/memlayout.h"
#include "sched/debug.h"
#include "sched/api.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "lib/time_units.h"

/* A CPU's ticks as USER_HZ ticks; idle is the time its ticks did not find busy. */
struct cpu_times {
	uint64_t user, nice, system, idle;
};

static struct cpu_times cpu_times_of(const struct cpu *c, uint64_t now)
{
	uint64_t tick_ns = NS_PER_S / tick_hz();
	struct cpu_times t = {
		.user = __atomic_load_n(&c->user_ticks, __ATOMIC_RELAXED) * tick_ns,
		.nice = __atomic_load_n(&c->nice_ticks, __ATOMIC_RELAXED) * tick_ns,
		.system = __atomic_load_n(&c->system_ticks, __ATOMIC_RELAXED) * tick_ns,
	};
	uint64_t busy = t.user + t.nice + t.system;
	t.idle = now > busy ? now - busy : 0;
	return t;
}

static void show_cpu_line(struct proc_buf *out, const char *name, struct cpu_times t)
{
	proc_printf(out, "%s %llu %llu %llu %llu 0 0 0 0 0 0\n", name, USER_TICKS(t.user), USER_TICKS(t.nice),
		    USER_TICKS(t.system), USER_TICKS(t.idle));
}

static int stat_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	uint64_t now = clock_ns();
	struct cpu_times all = { 0 };
	for (int i = 0; i < nr_cpus; i++) {
		if (!cpu_online(i))
			continue;
		struct cpu_times t = cpu_times_of(&cpus[i], now);
		all.user += t.user;
		all.nice += t.nice;
		all.system += t.system;
		all.idle += t.idle;
	}
	show_cpu_line(out, "cpu ", all);
	for (int i = 0; i < nr_cpus; i++) {
		char name[12];
		snprintf(name, sizeof(name), "cpu%d", i);
		if (cpu_online(i))
			show_cpu_line(out, name, cpu_times_of(&cpus[i], now));
	}
	proc_printf(out, "ctxt %llu\nbtime %lld\nprocs_running %u\n", (unsigned long long)sched_nr_switches(),
		    (long long)(realtime_at_clock_zero() / NS_PER_S), sched_nr_running());
	return 0;
}

static int uptime_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	uint64_t now = clock_ns(), idle = 0;
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_online(i))
			idle += cpu_times_of(&cpus[i], now).idle;
	proc_printf(out, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(now / NS_PER_S),
		    (unsigned long long)(now % NS_PER_S / (NS_PER_S / 100)), (unsigned long long)(idle / NS_PER_S),
		    (unsigned long long)(idle % NS_PER_S / (NS_PER_S / 100)));
	return 0;
}

static int loadavg_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	uint64_t avg[3];
	loadavg_read(avg);
	for (int i = 0; i < 3; i++) {
		uint64_t hundredths = (avg[i] * 100 + (1 << (LOADAVG_SHIFT - 1))) >> LOADAVG_SHIFT;
		proc_printf(out, "%llu.%02llu ", (unsigned long long)(hundredths / 100),
			    (unsigned long long)(hundredths % 100));
	}
	proc_printf(out, "%u/%d 0\n", sched_nr_running(), tasks_alive());
	return 0;
}

/* Free counts what the kernel keeps only to reuse, as sysinfo() does. */
static int meminfo_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	uint64_t total = pmm_total_pages() * PAGE_SIZE / 1024;
	uint64_t free = ((pmm_free_pages() + kstack_cached_pages()) * PAGE_SIZE + kmalloc_slab_free_bytes()) / 1024;
	proc_printf(out, "MemTotal:       %8llu kB\nMemFree:        %8llu kB\nMemAvailable:   %8llu kB\n"
		    "Buffers:        %8llu kB\nCached:                0 kB\nSwapTotal:             0 kB\n"
		    "SwapFree:              0 kB\n", (unsigned long long)total, (unsigned long long)free,
		    (unsigned long long)free, (unsigned long long)(vmm_table_pages() * PAGE_SIZE / 1024));
	return 0;
}

/* CPUID's brand string (leaves 0x80000002 to 4): Linux's "model name". */
static void model_name(char name[49])
{
	strlcpy(name, "unknown", 49);
	if (cpuid(0x80000000, 0).eax < 0x80000004)
		return;
	for (uint32_t i = 0; i < 3; i++) {
		struct cpuid r = cpuid(0x80000002 + i, 0);
		memcpy(name + 16 * i, &r, 16);
	}
	name[48] = '\0';
}

static int cpuinfo_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	char name[49];
	model_name(name);
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_online(i))
			proc_printf(out, "processor\t: %d\nmodel name\t: %s\ncpu MHz\t\t: %llu.%03llu\n"
				    "apicid\t\t: %u\n\n", i, name,
				    (unsigned long long)(tsc_hz() / 1000000),
				    (unsigned long long)(tsc_hz() / 1000 % 1000), cpus[i].apic_id);
	return 0;
}

static int cmdline_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	proc_printf(out, "%s\n", boot_info.cmdline);
	return 0;
}

static int version_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	proc_printf(out, "leftmost version 6.1.0-leftmost (a teaching kernel: the 2007 CFS) #1\n");
	return 0;
}

static int sched_debug_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	struct proc_sink sink = proc_sink(out);
	sched_debug_show(&sink.sink);
	return 0;
}

static int schedstat_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	struct proc_sink sink = proc_sink(out);
	sched_schedstat_show(&sink.sink);
	return 0;
}

/* One line per group: how many, of what, their bytes, and where from,
 * innermost call first: "    12 pages     49152  mm_fault+0x1a4 < ...". */
static void page_owner_line(const struct owner_group *g, void *arg)
{
	static const char *const kinds[] = { [OWNER_PAGES] = "pages", [OWNER_BLOCKS] = "blocks",
					     [OWNER_UNSORTED] = "unsorted" };
	struct proc_buf *out = arg;
	proc_printf(out, "%6zu %-8s %9zu ", g->count, kinds[g->kind], g->bytes);
	if (g->kind == OWNER_UNSORTED)
		proc_printf(out, " (no room left to sort them by place)");
	else if (!g->ips[0])
		proc_printf(out, " (handed out before page_owner started)");
	for (int i = 0; i < PAGE_OWNER_DEPTH && g->ips[i]; i++) {
		uint64_t offset;
		const char *name = ksym_lookup(g->ips[i], &offset);
		proc_printf(out, "%s", i ? " < " : " ");
		if (name)
			proc_printf(out, "%s+0x%llx", name, (unsigned long long)offset);
		else
			proc_printf(out, "0x%llx", (unsigned long long)g->ips[i]);
	}
	proc_printf(out, "\n");
}

/* /proc/page_owner: the pages and kmalloc blocks in use by where they were
 * asked for (page_owner=on; empty otherwise). */
static int page_owner_file(const struct inode *inode, struct proc_buf *out)
{
	(void)inode;
	if (page_owner_on && !page_owner_groups(page_owner_line, out))
		return -ENOMEM;
	return 0;
}

PROC_FILE(stat_node, "stat", stat_file);
PROC_FILE(schedstat_node, "schedstat", schedstat_file);
PROC_FILE(uptime_node, "uptime", uptime_file);
PROC_FILE(loadavg_node, "loadavg", loadavg_file);
PROC_FILE(meminfo_node, "meminfo", meminfo_file);
PROC_FILE(cpuinfo_node, "cpuinfo", cpuinfo_file);
PROC_FILE(cmdline_node, "cmdline", cmdline_file);
PROC_FILE(version_node, "version", version_file);
PROC_FILE(sched_debug_node, "sched_debug", sched_debug_file);
PROC_FILE(page_owner_node, "page_owner", page_owner_file);

const struct proc_node *const proc_root_files[] = {
	&stat_node, &uptime_node, &loadavg_node, &meminfo_node, &cpuinfo_node, &cmdline_node,
	&version_node, &sched_debug_node, &schedstat_node, &page_owner_node, &proc_self_node, NULL,
};

/* /proc/sys/kernel/NAME: a tunable, its struct param the inode's data. */

static int tunable_show(const struct inode *inode, struct proc_buf *out)
{
	const struct param *p = inode->proc.data;
	proc_printf(out, "%lld\n", (long long)sysctl_read((const int64_t *)p->var));
	return 0;
}

/* "5\n" as echo writes it: a whole number in range, or EINVAL and the old value stays. */
static int tunable_store(const struct inode *inode, const char *text, size_t len)
{
	const struct param *p = inode->proc.data;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	int64_t value;
	if (parse_i64(text, len, &value) != 0)
		return -EINVAL;
	return sysctl_set(p->name, value);
}

static const struct proc_node tunable_node = {
	.mode = S_IFREG | 0644, .show = tunable_show, .store = tunable_store,
};
static const struct proc_node dir_node = { .mode = S_IFDIR | 0555 };

struct sys_walk {
	struct inode *dir;
	bool failed;
};

static void add_tunable(const struct param *p, void *arg)
{
	struct sys_walk *w = arg;
	w->failed |= !procfs_add(w->dir, &tunable_node, p->name, 0, 0, p);
}

bool proc_sys_init(struct inode *proc)
{
	struct inode *sys = procfs_add(proc, &dir_node, "sys", 0, 0, NULL);
	struct sys_walk w = { sys ? procfs_add(sys, &dir_node, "kernel", 0, 0, NULL) : NULL, false };
	if (!w.dir)
		return false;
	sysctl_for_each(add_tunable, &w);
	return !w.failed;
}
