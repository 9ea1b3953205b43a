/* ktest=fork: the tests of kernel/task/fork.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

/*
 * Tests: every allocation a fork or a clone makes can fail, and each
 * failure must give back all that came before it. The test task becomes
 * the one thread of a small process of its own (a few pages in distant
 * tables, a pipe, a working directory, a command line) and forks with its
 * n-th allocation failing (alloc_fail_nth()), for n = 1, 2, ... until a
 * fork gets through; after each, every page, kmalloc block and task is
 * back. The child that gets through runs three instructions: it exits.
 */
#define TEST_CODE 0x400000ULL
static const uint64_t test_data[] = { 0x10000000ULL, 0x7f0000000000ULL, USER_STACK_TOP - PAGE_SIZE };

struct test_process {
	struct process *proc;
	struct thread thread;
	struct fpu_state *fpu;
};

static size_t free_page_count(void)
{
	kstack_trim();                    /* so a new task's stack takes fresh pages, each of which may fail */
	return pmm_free_pages() + kmalloc_slab_pages() + vmm_table_pages();
}

/* The calling test task becomes the only thread of a new process whose
 * code is `code`; false when out of memory. */
static bool become_process(struct test_process *tp, const uint8_t *code, size_t len)
{
	struct task *me = current();
	struct mm *mm = mm_create();
	struct fdtable *files = fdtable_create();
	struct file *r = NULL, *w = NULL;
	tp->fpu = kmalloc(sizeof(*tp->fpu));
	tp->proc = mm && files ? process_create(mm, files) : NULL;
	bool ok = tp->proc && tp->fpu && pipe_create(0, &r, &w) == 0 &&
		  mm_map_anon(mm, TEST_CODE, PAGE_SIZE, PROT_READ | PROT_EXEC) == 0 &&
		  mm_write(mm, TEST_CODE, code, len) == 0;
	for (size_t i = 0; ok && i < sizeof(test_data) / sizeof(test_data[0]); i++)
		ok = mm_map_anon(mm, test_data[i], PAGE_SIZE, PROT_READ | PROT_WRITE) == 0 &&
		     mm_write(mm, test_data[i], &i, sizeof(i)) == 0;
	if (r)
		fd_install(files, r, 0, false);
	if (w)
		fd_install(files, w, 0, false);
	if (tp->proc) {
		tp->proc->cmdline = kmalloc(6);
		if (tp->proc->cmdline) {
			memcpy(tp->proc->cmdline, "ktest", 6);
			tp->proc->cmdline_len = 6;
		}
		tp->proc->cwd = inode_get(fs_root());
		tp->proc->pid = tp->proc->pgid = tp->proc->sid = me->pid;
	}
	if (!ok) {
		if (tp->proc) {
			inode_put(tp->proc->cwd);
			kfree(tp->proc->cmdline);
		}
		kfree(tp->proc);
		kfree(tp->fpu);
		fdtable_put(files);
		if (mm)
			mm_destroy(mm);
		return false;
	}
	tp->thread = (struct thread){ .task = me };
	list_add_tail(&tp->proc->threads, &tp->thread.node);
	fpu_state_init(tp->fpu);
	uint64_t flags = irq_save();      /* the switch code reads the three together */
	me->fpu = tp->fpu;
	me->thread = &tp->thread;
	me->process = tp->proc;
	irq_restore(flags);
	return true;
}

/* ...and a kernel task again, its process gone. */
static void stop_being_process(struct test_process *tp)
{
	struct task *me = current();
	uint64_t flags = irq_save();
	me->process = NULL;
	me->thread = NULL;
	me->fpu = NULL;
	mm_activate(NULL);                /* as a leaving thread: its tables may go */
	irq_restore(flags);
	struct process *proc = tp->proc;
	mm_destroy(proc->mm);
	fdtable_put(proc->files);
	inode_put(proc->cwd);
	kfree(proc->cmdline);
	kfree(proc);
	kfree(tp->fpu);
}

/* Exited tasks are freed by the reaper, soon after (within 10 s, on a
 * loaded host). */
static void wait_for_tasks(int count)
{
	for (int i = 0; i < 2000 && tasks_alive() != count; i++)
		sleep_ns(5 * NS_PER_MS);
}

/* Clone with the n-th allocation failing, n = 1, 2, ...: each failure is
 * ENOMEM with nothing kept, and the clone that gets through, once its
 * child has exited, keeps nothing either. */
static void clone_until_it_gets_through(struct ktest_ctx *t, const struct clone_args *args, bool thread)
{
	static const uint8_t exit_group0[] = { 0xb8, 0xe7, 0, 0, 0, 0x31, 0xff, 0x0f, 0x05 };   /* exit_group(0) */
	static const uint8_t exit0[] = { 0xb8, 0x3c, 0, 0, 0, 0x31, 0xff, 0x0f, 0x05 };         /* exit(0) */
	struct test_process tp;
	KASSERT(t, become_process(&tp, thread ? exit0 : exit_group0, sizeof(exit0)));
	struct user_regs regs = { .rip = TEST_CODE, .rsp = USER_STACK_TOP - 64 };
	int failures = 0;
	for (int n = 1; n < 500; n++) {
		size_t pages = free_page_count(), blocks = kmalloc_live_blocks();
		int tasks = tasks_alive();
		alloc_fail_nth(n);
		long tid = process_clone(&regs, args);
		bool injected = alloc_failure_injected();
		alloc_fail_nth(0);
		if (tid > 0) {
			if (thread) {
				for (int i = 0; i < 2000 && tp.proc->threads.next != tp.proc->threads.prev; i++)
					sleep_ns(5 * NS_PER_MS);      /* until only the test task is left */
			} else {
				int status = -1;
				struct cputime time;
				KEXPECT_EQ(t, process_wait_child((int)tid, 0, &status, &time), tid);
				KEXPECT_EQ(t, status, 0);
			}
		} else {
			KEXPECT_EQ(t, tid, -ENOMEM);
			failures++;
		}
		wait_for_tasks(tasks);
		KEXPECT_EQ(t, tasks_alive(), tasks);
		KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
		KEXPECT_EQ(t, free_page_count(), pages);
		if (t->failures) {
			pr_info("ktest: the clone with allocation %d failing left something behind", n);
			break;
		}
		if (tid > 0 && !injected)
			break;                /* every allocation it makes was made to fail once */
	}
	pr_info("ktest: %s: %d allocations failed in turn, each gave everything back", thread ? "clone" : "fork",
		failures);
	KEXPECT(t, failures > 3);
	stop_being_process(&tp);
}

KTEST(fork, a_fork_out_of_memory_part_way_gives_everything_back)
{
	const struct clone_args args = { .flags = SIGCHLD };
	clone_until_it_gets_through(t, &args, false);
}

KTEST(fork, a_thread_out_of_memory_part_way_gives_everything_back)
{
	const struct clone_args args = { .flags = CLONE_A_THREAD | CLONE_FS | CLONE_SYSVSEM };
	clone_until_it_gets_through(t, &args, true);
}
