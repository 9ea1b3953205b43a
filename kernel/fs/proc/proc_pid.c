/*
 * /proc/PID and /proc/PID/task/TID: what ps and top read about each
 * process and thread, in Linux's formats (proc(5)), and the seed's
 * per-task scheduler statistics in /proc/PID/sched, and where a task
 * waits in the kernel in /proc/PID/stack. /proc/self is the
 * reader's own.
 */
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/proc/proc_nodes.h"
#include "kernel/task/process.h"
#include "kernel/fs/proc/process_info.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/ksyms.h"
#include "kernel/errno.h"
#include "sched/debug.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/time_units.h"
#include "lib/util.h"

static const char *state_name(char state)
{
	switch (state) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'T': return "T (stopped)";
	default:  return "Z (zombie)";
	}
}

/* A process's snapshot, or one of its threads' in its place (/proc/PID/task/TID). */
static int snapshot(const struct inode *inode, struct process_info **out)
{
	struct process_info *info = kmalloc(sizeof(*info));
	if (!info)
		return -ENOMEM;
	int err = process_info(procfs_pid(inode), info);
	if (!err && inode->proc.tid) {
		err = thread_info(info->pid, inode->proc.tid, &info->leader);
		info->time = info->leader.time;
	}
	if (err)
		kfree(info);
	else
		*out = info;
	return err;
}

/* proc(5)'s 52 fields; those leftmost does not keep (page faults, memory
 * figures, signal masks) are 0, as Linux shows them to other users. */
static void show_stat(const struct process_info *p, struct proc_buf *out)
{
	const struct thread_info *t = &p->leader;
	proc_printf(out, "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 %llu %llu %llu %llu %d %d %d 0 %llu 0 0 "
		    "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 %d %d %d 0 0 0 0 0 0 0 0 0 0 %d\n",
		    t->tid, t->name, t->state, p->ppid, p->pgid, p->sid, USER_TICKS(p->time.user_ns),
		    USER_TICKS(p->time.system_ns), USER_TICKS(p->children_time.user_ns), USER_TICKS(p->children_time.system_ns),
		    t->prio - MAX_RT_PRIO, t->nice, p->nr_threads, USER_TICKS(t->start_ns), t->cpu, t->rt_priority,
		    t->policy, p->zombie ? p->exit_status : 0);
}

/* A file that shows what show() makes of the inode's snapshot. */
static int with_snapshot(const struct inode *inode, struct proc_buf *out,
			 void (*show)(const struct process_info *p, struct proc_buf *out))
{
	struct process_info *p = NULL;
	int err = snapshot(inode, &p);
	if (!err)
		show(p, out);
	kfree(p);
	return err;
}

static int stat_file(const struct inode *inode, struct proc_buf *out)
{
	return with_snapshot(inode, out, show_stat);
}

/* "0-3,5": the CPUs of a mask, as Cpus_allowed_list shows them. */
static void show_cpu_list(cpumask_t mask, struct proc_buf *out)
{
	const char *sep = "";
	for (int cpu = 0; cpu < 64; cpu++) {
		if (!(mask >> cpu & 1))
			continue;
		int last = cpu;
		while (last < 63 && (mask >> (last + 1) & 1))
			last++;
		if (last == cpu)
			proc_printf(out, "%s%d", sep, cpu);
		else
			proc_printf(out, "%s%d-%d", sep, cpu, last);
		sep = ",";
		cpu = last;
	}
	proc_printf(out, "\n");
}

/* The CPUs there are: a task's mask allows every CPU, even those absent. */
static cpumask_t online_mask(void)
{
	cpumask_t mask = 0;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (cpu_online(cpu))
			mask |= (cpumask_t)1 << cpu;
	return mask;
}

static void show_status(const struct process_info *p, struct proc_buf *out)
{
	const struct thread_info *t = &p->leader;
	cpumask_t allowed = t->cpus_allowed & online_mask();
	proc_printf(out, "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		    "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nThreads:\t%d\n", t->name, state_name(t->state),
		    p->pid, t->tid, p->ppid, p->nr_threads);
	proc_printf(out, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\nSigIgn:\t%016llx\nSigCgt:\t%016llx\n",
		    (unsigned long long)t->pending, (unsigned long long)t->shared_pending,
		    (unsigned long long)t->blocked, (unsigned long long)t->ignored, (unsigned long long)t->caught);
	proc_printf(out, "Cpus_allowed:\t%llx\nCpus_allowed_list:\t", (unsigned long long)allowed);
	show_cpu_list(allowed, out);
	proc_printf(out, "voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
		    (unsigned long long)(t->stats.nr_switches - t->stats.nr_preemptions),
		    (unsigned long long)t->stats.nr_preemptions);
}

static int status_file(const struct inode *inode, struct proc_buf *out)
{
	return with_snapshot(inode, out, show_status);
}

static void show_comm(const struct process_info *p, struct proc_buf *out)
{
	proc_printf(out, "%s\n", p->leader.name);
}

static int comm_file(const struct inode *inode, struct proc_buf *out)
{
	return with_snapshot(inode, out, show_comm);
}

static void show_cmdline(const struct process_info *p, struct proc_buf *out)
{
	proc_write(out, p->cmdline, p->zombie ? 0 : p->cmdline_len);
}

static int cmdline_file(const struct inode *inode, struct proc_buf *out)
{
	return with_snapshot(inode, out, show_cmdline);
}

/* What schedstat tools read (Linux's /proc/PID/schedstat): time on the CPU
 * and time runnable but waiting, in ns, and times switched in. */
static void show_schedstat(const struct process_info *p, struct proc_buf *out)
{
	const struct thread_info *t = &p->leader;
	proc_printf(out, "%llu %llu %llu\n", (unsigned long long)(t->time.user_ns + t->time.system_ns),
		    (unsigned long long)t->stats.sum_wait_runtime, (unsigned long long)t->stats.nr_switches);
}

static int schedstat_file(const struct inode *inode, struct proc_buf *out)
{
	return with_snapshot(inode, out, show_schedstat);
}

/* The seed's statistics of one task, as its scheduler keeps them
 * (sched/debug.c), under a header like Linux's /proc/PID/sched. */
static int sched_file(const struct inode *inode, struct proc_buf *out)
{
	struct process_info *p;
	int err = snapshot(inode, &p);
	if (err)
		return err;
	int tid = p->leader.tid;
	proc_printf(out, "%s (%d, #threads: %d)\n", p->leader.name, tid, p->nr_threads);
	proc_printf(out, "-------------------------------------------------------------------\n");
	kfree(p);
	struct proc_sink sink = proc_sink(out);
	return process_task_show(procfs_pid(inode), tid, &sink.sink);
}

/* Where a task waits in the kernel, as Linux's /proc/PID/stack shows it:
 * "[<0>] function+0xoffset" a line, innermost first, the return addresses
 * of its saved frames; empty while it runs on a CPU. */
#define STACK_FRAMES 32

static int stack_file(const struct inode *inode, struct proc_buf *out)
{
	uint64_t pcs[STACK_FRAMES];
	int tid = inode->proc.tid ? inode->proc.tid : procfs_pid(inode);
	int n = thread_stack(procfs_pid(inode), tid, pcs, STACK_FRAMES);
	for (int i = 0; i < n; i++) {
		uint64_t offset;
		const char *name = ksym_lookup(pcs[i], &offset);
		if (name)
			proc_printf(out, "[<0>] %s+0x%llx\n", name, (unsigned long long)offset);
		else
			proc_printf(out, "[<0>] 0x%llx\n", (unsigned long long)pcs[i]);
	}
	return n < 0 ? n : 0;
}

PROC_FILE(stat_node, "stat", stat_file);
PROC_FILE(status_node, "status", status_file);
PROC_FILE(comm_node, "comm", comm_file);
PROC_FILE(cmdline_node, "cmdline", cmdline_file);
PROC_FILE(sched_node, "sched", sched_file);
PROC_FILE(schedstat_node, "schedstat", schedstat_file);
PROC_FILE(stack_node, "stack", stack_file);

static const struct proc_node *const thread_files[] = {
	&stat_node, &status_node, &comm_node, &sched_node, &schedstat_node, &stack_node, NULL,
};
static const struct proc_node thread_dir = { .mode = S_IFDIR | 0555, .children = thread_files };

/* The ids of the entries that come and go in a directory: sorted, so
 * that each entry finds its own with a binary search. */
static bool listed(const int *ids, int n, int id)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (ids[mid] == id)
			return true;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void sort_ids(int *ids, int n)
{
	for (int i = 1; i < n; i++) {    /* insertion: they come nearly sorted */
		int x = ids[i], j = i;
		for (; j > 0 && ids[j - 1] > x; j--)
			ids[j] = ids[j - 1];
		ids[j] = x;
	}
}

/* /proc itself, once it has been looked into, and how many /proc/PID
 * directories it holds (proc_flush_pid). */
static struct inode *proc_dir;
static int pid_dirs;

/* Under the tree lock: dir's entries of kind `node` (named by their id, a
 * pid, or a tid if `threads`) that ids, sorted, does not list, go. */
static void remove_unlisted(struct inode *dir, const struct proc_node *node, const int *ids, int n, bool threads)
{
	struct dentry *d;
	for (uint64_t at = 0; (d = dir_entry_from(dir, at)); ) {
		at = d->index + 1;
		if (d->inode->proc.node != node)
			continue;
		int id = threads ? d->inode->proc.tid : d->inode->proc.pid;
		if (!listed(ids, n, id)) {
			procfs_remove(dir, d);
			if (!threads)
				__atomic_fetch_sub(&pid_dirs, 1, __ATOMIC_RELAXED);
		}
	}
}

/* Under the tree lock: dir's entries of kind `node` become exactly those
 * of ids: the gone ones go, the new ones come. */
static void sync_entries(struct inode *dir, const struct proc_node *node, int *ids, int n, bool threads)
{
	sort_ids(ids, n);
	remove_unlisted(dir, node, ids, n, threads);
	for (int i = 0; i < n; i++) {
		char name[12];
		snprintf(name, sizeof(name), "%d", ids[i]);
		if (dir_find(dir, name, strlen(name)))
			continue;
		/* Out of memory: missing until the next look. */
		if (threads)
			procfs_add(dir, node, name, dir->proc.pid, ids[i], NULL);
		else if (procfs_add(dir, node, name, ids[i], 0, NULL))
			__atomic_fetch_add(&pid_dirs, 1, __ATOMIC_RELAXED);
	}
}

/* The ids that fn lists, in room that grows until they fit; NULL (none
 * listed) when out of memory. */
static int *list_ids(int (*fn)(int pid, int *ids, int max), int pid, int *n)
{
	for (int max = 64;; max *= 2) {
		int *ids = kmalloc((size_t)max * sizeof(int));
		*n = ids ? fn(pid, ids, max) : 0;
		if (!ids || *n <= max)
			return ids;
		kfree(ids);
	}
}

static int tids_of(int pid, int *ids, int max)
{
	int n = process_tids(pid, ids, max);
	return n < 0 ? 0 : n;
}

static void refresh_threads(struct inode *dir)
{
	int n;
	int *tids = list_ids(tids_of, procfs_pid(dir), &n);
	if (tids)
		sync_entries(dir, &thread_dir, tids, n, true);
	kfree(tids);
}

static const struct proc_node task_node = { .name = "task", .mode = S_IFDIR | 0555, .refresh = refresh_threads };

static const struct proc_node *const process_files[] = {
	&stat_node, &status_node, &comm_node, &cmdline_node, &sched_node, &schedstat_node, &stack_node,
	&task_node, NULL,
};
static const struct proc_node process_dir = { .mode = S_IFDIR | 0555, .children = process_files };
const struct proc_node proc_self_node = { .name = "self", .mode = S_IFDIR | 0555, .children = process_files };

static int all_pids(int unused, int *ids, int max)
{
	(void)unused;
	return process_pids(ids, max);
}

void proc_refresh_pids(struct inode *proc)
{
	int n;
	int *pids = list_ids(all_pids, 0, &n);
	proc_dir = proc;
	if (pids)
		sync_entries(proc, &process_dir, pids, n, false);
	kfree(pids);
}

/* Processes are gone for good: their /proc/PID directories go now, as
 * Linux's proc_flush_pid() drops a released task's entries, rather than
 * at the next look into /proc, so that what a directory holds is given
 * back with the rest of its process. Called with no lock held (it takes
 * the tree's); with no such directory, it costs a load. */
static void flush_released(void)
{
	if (!__atomic_load_n(&pid_dirs, __ATOMIC_RELAXED))
		return;
	int n;
	int *pids = list_ids(all_pids, 0, &n);
	if (!pids)
		return;                   /* out of memory: they go at the next look */
	sort_ids(pids, n);
	tree_lock();
	remove_unlisted(proc_dir, &process_dir, pids, n, false);
	tree_unlock();
	kfree(pids);
}

void proc_pid_init(void)
{
	process_on_release(flush_released);
}
