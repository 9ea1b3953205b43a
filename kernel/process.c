/*
 * Processes as tasks. process_spawn() builds the whole address space
 * first (kernel/exec.c), then makes a task that, in the kernel, only drops
 * to ring 3; from then on it enters the kernel by system calls and
 * interrupts, and ends in process_exit(): by exit(), or killed by a fault
 * of its own (user_fault()).
 */
#include "kernel/process.h"
#include "kernel/exec.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/initramfs.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "kernel/ktest.h"
#include "sched/platform.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"
#include "lib/string.h"

enum { SIGILL = 4, SIGTRAP = 5, SIGBUS = 7, SIGFPE = 8, SIGSEGV = 11 };   /* Linux's numbers */

/* A process's task starts here, in the kernel, already on the process's
 * page tables (the switch loaded them): straight to the program's entry. */
static void enter_program(void *arg)
{
	(void)arg;
	const struct mm *mm = sched_current()->process->mm;
	arch_enter_user(mm->entry, mm->start_stack);
}

/* The task's name: the file's, as Linux's comm ("/bin/hello" is "hello"). */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int process_spawn(const char *path, const char *const argv[], const char *const envp[])
{
	struct mm *mm;
	int err = exec_load(path, argv, envp, &mm);
	if (err)
		return err;
	struct process *proc = kzalloc(sizeof(*proc));
	struct fpu_state *fpu = kmalloc(sizeof(*fpu));
	struct task *p = proc && fpu ? task_create(base_name(path), enter_program, NULL) : NULL;
	if (!p) {
		kfree(fpu);
		kfree(proc);
		mm_destroy(mm);
		return -ENOMEM;
	}
	fpu_state_init(fpu);
	proc->mm = mm;
	p->fpu = fpu;
	p->process = proc;
	int pid = p->pid;
	task_start(p);
	return pid;
}

int process_wait(int pid, int *status)
{
	struct task *p = sched_task_get(pid);
	if (!p)
		return -ECHILD;
	if (p->entry != enter_program) {  /* not a process (`process` is no guide: exit clears it) */
		sched_task_put(p);
		return -ECHILD;
	}
	/* The join gives up the spawner's reference to the task, the put ours. */
	int code = task_join(p);
	sched_task_put(p);
	if (status)
		*status = code;
	return pid;
}

void process_exit(int status)
{
	struct task *me = sched_current();
	struct process *proc = me->process;
	/* A kernel task from here on: no switch loads the address space again,
	 * and this CPU leaves it, so it can go. */
	uint64_t flags = irq_save();
	me->process = NULL;
	mm_activate(NULL);
	irq_restore(flags);
	mm_destroy(proc->mm);
	kfree(proc);
	kfree(me->fpu);
	me->fpu = NULL;
	task_exit(status);
}

/* The signal Linux would kill the program with for this exception. */
static int fault_signal(uint64_t vector)
{
	switch (vector) {
	case 0: case 16: case 19:         /* divide error, x87 and SIMD floating point */
		return SIGFPE;
	case 6:                           /* invalid opcode */
		return SIGILL;
	case 1: case 3:                   /* debug, breakpoint */
		return SIGTRAP;
	case 17:                          /* alignment check */
		return SIGBUS;
	default:                          /* page faults, protection faults, ... */
		return SIGSEGV;
	}
}

/* There are no signal handlers yet: the fault kills the program. */
void user_fault(const char *what, uint64_t addr, struct trap_frame *f)
{
	struct task *me = sched_current();
	pr_info("pid %d (%s): %s at 0x%llx (rip 0x%llx): killed", me->pid, me->name, what,
		(unsigned long long)addr, (unsigned long long)f->rip);
	irq_enable();                     /* exceptions arrive with interrupts off; exiting sleeps */
	process_exit(wait_status_killed(fault_signal(f->vector)));
}

static size_t free_page_count(void)
{
	kstack_trim();                    /* freed kernel stacks wait, mapped, for reuse */
	return pmm_free_pages() + kmalloc_slab_pages() + vmm_table_pages();
}

KTEST(process, programs_run_side_by_side_and_leave_nothing_behind)
{
	const char *const argv[] = { "/bin/hello", NULL }, *const envp[] = { "TERM=linux", NULL };
	const void *file;
	size_t size;
	if (!initramfs_find(argv[0], &file, &size))
		KSKIP(t, "no /bin/hello in the initramfs");
	size_t before = free_page_count();
	int pids[3], status = -1;
	for (int i = 0; i < 3; i++)
		KEXPECT(t, (pids[i] = process_spawn(argv[0], argv, envp)) > 0);
	for (int i = 0; i < 3; i++) {
		if (pids[i] <= 0)
			continue;
		KEXPECT_EQ(t, process_wait(pids[i], &status), pids[i]);
		KEXPECT_EQ(t, status, 0);
	}
	KEXPECT_EQ(t, free_page_count(), before);
}

KTEST(process, bad_requests_are_refused)
{
	const char *const argv[] = { "/bin/nothing", NULL };
	int status;
	KEXPECT_EQ(t, process_spawn(argv[0], argv, NULL), -ENOENT);
	KEXPECT_EQ(t, process_wait(-1, &status), -ECHILD);
	KEXPECT_EQ(t, process_wait(sched_current()->pid, &status), -ECHILD);   /* a kernel task */
}
