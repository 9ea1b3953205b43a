/*
 * fork() and clone(): a new process that is a copy of the caller, or a new
 * thread in the caller's process. A new process's address space is the
 * parent's, copy-on-write (mm_fork), its descriptors the same open files
 * (fdtable_fork); a new thread shares both. Either way the new task's
 * scheduling policy, nice level and CPUs are the creator's, as on Linux,
 * and it starts in the kernel only to go straight to ring 3 with the
 * creator's registers, but rax 0 (clone returns 0 in the child) and the
 * stack and FS base clone asked for.
 */
#include "kernel/process.h"
#include "kernel/thread.h"
#include "kernel/fdtable.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/pipe.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "kernel/fs.h"
#include "kernel/ramfs.h"
#include "kernel/ktest.h"
#include "lib/string.h"
#include "lib/time_units.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "sched/wait.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"

/* Linux's clone flags (the low byte is the signal the parent gets). */
enum {
	CSIGNAL = 0xff, CLONE_VM = 0x100, CLONE_FS = 0x200, CLONE_FILES = 0x400,
	CLONE_SIGHAND = 0x800, CLONE_VFORK = 0x4000, CLONE_THREAD = 0x10000,
	CLONE_SYSVSEM = 0x40000, CLONE_SETTLS = 0x80000, CLONE_PARENT_SETTID = 0x100000,
	CLONE_CHILD_CLEARTID = 0x200000, CLONE_DETACHED = 0x400000, CLONE_CHILD_SETTID = 0x01000000,
};
#define CLONE_UNDERSTOOD (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | \
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
			  CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_CHILD_SETTID)
#define CLONE_A_THREAD (CLONE_VM | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD)

/* What the new task needs once it runs. */
struct child_start {
	struct user_regs regs;
	uint64_t set_tid;                 /* CLONE_CHILD_SETTID: write the tid here, in its own memory */
};

static void resume_child(void *arg)
{
	struct child_start start = *(struct child_start *)arg;
	kfree(arg);
	struct task *me = sched_current();
	if (start.set_tid)
		copy_to_user((void *)start.set_tid, &me->pid, sizeof(me->pid));   /* a bad address: as Linux, no matter */
	start.regs.rax = 0;
	arch_resume_user(&start.regs);
}

/* What Linux's clone copies of the scheduler's view of the creator: all
 * of it, but after SCHED_RESET_ON_FORK an RT policy and a negative nice
 * (and the flag itself). */
static void inherit_scheduling(struct task *child, struct task *parent)
{
	struct sched_param param;
	int policy = sched_getscheduler(parent->pid), nice;
	cpumask_t cpus;
	if (policy < 0 || sched_getparam(parent->pid, &param) < 0 || sched_get_nice(parent->pid, &nice) < 0 ||
	    sched_getaffinity(parent->pid, &cpus) < 0)
		return;                   /* only the parent itself asks: cannot fail */
	if (policy & SCHED_RESET_ON_FORK) {
		policy &= ~SCHED_RESET_ON_FORK;
		if (policy == SCHED_FIFO || policy == SCHED_RR) {
			policy = SCHED_NORMAL;
			param.sched_priority = 0;
		}
		if (nice < 0)
			nice = 0;
	}
	sched_setscheduler(child->pid, policy, &param);
	sched_set_nice(child->pid, nice);
	sched_setaffinity(child->pid, cpus);
}

/* A new process, its first thread created but not started: 0, -ENOMEM, or
 * -EAGAIN at the kernel's limit of tasks. */
static int new_process(struct child_start *start, struct task **out)
{
	struct task *me = sched_current();
	struct process *parent = me->process;
	mutex_lock(&parent->mm->lock);
	struct mm *mm = mm_fork(parent->mm);
	mutex_unlock(&parent->mm->lock);
	struct fdtable *files = mm ? fdtable_fork(parent->files) : NULL;
	struct process *proc = files ? process_create(mm, files) : NULL;
	if (proc)
		signals_fork(&proc->signals, &parent->signals);
	int err = -ENOMEM;
	if (!proc || (err = process_start(proc, parent, me->name, resume_child, start, out)) < 0) {
		kfree(proc);
		if (files)
			fdtable_put(files);
		if (mm)
			mm_destroy(mm);
		return err;
	}
	return 0;
}

long process_clone(const struct user_regs *regs, const struct clone_args *args)
{
	uint64_t flags = args->flags;
	bool thread = flags & CLONE_THREAD;
	/* Linux's rules; and what leftmost does not offer: an address space
	 * shared without being a thread (but vfork's, which it copies), a
	 * thread with descriptors of its own. */
	if ((flags & ~(uint64_t)CLONE_UNDERSTOOD) || (thread && !(flags & CLONE_SIGHAND)) ||
	    ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM)) ||
	    (thread ? (flags & CLONE_A_THREAD) != CLONE_A_THREAD :
		      (flags & CLONE_VM) && !(flags & CLONE_VFORK)))
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && args->tls >= USER_TOP)
		return -EPERM;                /* as arch_prctl(ARCH_SET_FS): the FS base must be a user address */
	struct task *me = sched_current(), *child;
	struct child_start *start = kmalloc(sizeof(*start));
	if (!start)
		return -ENOMEM;
	*start = (struct child_start){ .regs = *regs };
	if (args->stack)
		start->regs.rsp = args->stack;
	if (flags & CLONE_CHILD_SETTID)
		start->set_tid = args->child_tid;
	int err = thread ? process_add_thread(me->process, me->thread, false, me->name, resume_child, start, &child)
			 : new_process(start, &child);
	if (err) {
		kfree(start);
		return err;
	}
	child->fs_base = flags & CLONE_SETTLS ? args->tls : me->fs_base;
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = args->child_tid;
	preempt_disable();                /* the registers are the creator's only while it runs */
	fpu_save(child->fpu);
	preempt_enable();
	inherit_scheduling(child, me);
	int tid = child->pid;
	if (flags & CLONE_PARENT_SETTID)
		copy_to_user((void *)args->parent_tid, &tid, sizeof(tid));   /* a bad address: as Linux, no matter */
	task_start(child);
	return tid;
}

int process_fork(const struct user_regs *regs)
{
	const struct clone_args args = { .flags = SIGCHLD };
	return (int)process_clone(regs, &args);
}

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
	struct task *me = sched_current();
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
	struct task *me = sched_current();
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
