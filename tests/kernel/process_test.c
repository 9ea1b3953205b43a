/* ktest=process: the tests of the processes (kernel/task/process*.c), through their public interface. */
#include "kernel/task/process.h"
#include "kernel/task/kthread.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/path_walk.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/debug/ktest.h"
#include "sched/platform.h"
#include "lib/time_units.h"

/* Ended processes' tasks are freed by the reaper, soon after. */
static void wait_for_reaper(int tasks_before)
{
	for (int i = 0; i < 100 && tasks_alive() != tasks_before; i++)
		sleep_ns(10 * NS_PER_MS);
}

static size_t free_page_count(void)
{
	kstack_trim();                    /* freed kernel stacks wait, mapped, for reuse */
	return pmm_free_pages() + kmalloc_slab_pages() + vmm_table_pages();
}

/* Is there a file at path? The tests skip without their programs. */
static bool exists(const char *path)
{
	struct inode *inode;
	if (path_lookup(NULL, path, &inode) < 0)
		return false;
	inode_put(inode);
	return true;
}

KTEST(process, programs_run_side_by_side_and_leave_nothing_behind)
{
	const char *const argv[] = { "/bin/hello", NULL }, *const envp[] = { "TERM=linux", NULL };
	if (!exists(argv[0]))
		KSKIP(t, "no /bin/hello in the initramfs");
	size_t before = free_page_count();
	int tasks_before = tasks_alive(), pids[3], status = -1;
	for (int i = 0; i < 3; i++)
		KEXPECT(t, (pids[i] = process_spawn(argv[0], argv, envp)) > 0);
	for (int i = 0; i < 3; i++) {
		if (pids[i] <= 0)
			continue;
		KEXPECT_EQ(t, process_wait(pids[i], &status), pids[i]);
		KEXPECT_EQ(t, status, 0);
	}
	wait_for_reaper(tasks_before);
	KEXPECT_EQ(t, tasks_alive(), tasks_before);
	KEXPECT_EQ(t, free_page_count(), before);
}

/* Issue 12's leak test: every page and task a thousand processes used
 * comes back. forkexec forks each child, which execs exit42. */
KTEST(process, a_thousand_forks_and_execs_leave_nothing_behind)
{
	const char *const argv[] = { "/bin/forkexec", "1000", "/bin/exit42", NULL };
	if (!exists(argv[0]) || !exists(argv[2]))
		KSKIP(t, "no /bin/forkexec or /bin/exit42 in the initramfs");
	size_t before = free_page_count();
	int tasks_before = tasks_alive(), status = -1;
	int pid = process_spawn(argv[0], argv, NULL);
	KASSERT(t, pid > 0);
	KEXPECT_EQ(t, process_wait(pid, &status), pid);
	KEXPECT_EQ(t, status, wait_status_exited(0));   /* every child exited 42 */
	wait_for_reaper(tasks_before);
	KEXPECT_EQ(t, tasks_alive(), tasks_before);
	KEXPECT_EQ(t, free_page_count(), before);
}

/* Loading a program can fail at each of its allocations: every failure
 * gives back what came before it (kernel/task/fork.c does the same for fork). */
KTEST(process, a_spawn_out_of_memory_part_way_gives_everything_back)
{
	const char *const argv[] = { "/bin/hello", "an argument", NULL }, *const envp[] = { "TERM=linux", NULL };
	if (!exists(argv[0]))
		KSKIP(t, "no /bin/hello in the initramfs");
	int failures = 0, status = -1;
	for (int n = 0; n < 2000; n++) {            /* n = 0: a first run, that fills what is kept */
		int tasks_before = tasks_alive();
		size_t before = free_page_count(), blocks = kmalloc_live_blocks();
		alloc_fail_nth(n);
		int pid = process_spawn(argv[0], argv, envp);
		bool injected = alloc_failure_injected();
		alloc_fail_nth(0);
		if (pid > 0) {
			KEXPECT_EQ(t, process_wait(pid, &status), pid);
		} else {
			KEXPECT_EQ(t, pid, -ENOMEM);
			failures++;
		}
		wait_for_reaper(tasks_before);
		KEXPECT_EQ(t, tasks_alive(), tasks_before);
		KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
		KEXPECT_EQ(t, free_page_count(), before);
		if (t->failures) {
			pr_info("ktest: the spawn with allocation %d failing left something behind", n);
			break;
		}
		if (n > 0 && pid > 0 && !injected)
			break;
	}
	pr_info("ktest: spawn: %d allocations failed in turn", failures);
	KEXPECT(t, failures > 3);
}

KTEST(process, bad_requests_are_refused)
{
	const char *const argv[] = { "/bin/nothing", NULL };
	int status;
	KEXPECT_EQ(t, process_spawn(argv[0], argv, NULL), -ENOENT);
	KEXPECT_EQ(t, process_wait(-1, &status), -ECHILD);
	KEXPECT_EQ(t, process_wait(current()->pid, &status), -ECHILD);   /* a kernel task */
	KEXPECT_EQ(t, process_kill(current()->pid, 0), -ESRCH);
	KEXPECT_EQ(t, process_kill(1, NSIG + 1), -EINVAL);
}
