/*
 * Processes as tasks: their tree and its members. A process is created
 * with its address space and descriptors, gets its first thread (more
 * come by clone()) and its place in the tree under a parent, whose group,
 * session, limits and working directory it takes; the kernel starts its
 * own programs here (process_spawn). A thread's task starts in the kernel,
 * only to drop to ring 3 (enter_program, or a clone's resume_child in
 * kernel/task/fork.c); from then on it enters the kernel by system calls
 * and interrupts, and leaves in thread_exit() or process_exit()
 * (kernel/task/process_exit.c).
 *
 * One lock guards the whole tree (every process's parent, children and
 * state): the lock of the wait queue where parents wait for a child to
 * end. A waiter checks for an ended child under it; an ending child
 * changes its state and wakes the queue under it: no end goes unseen.
 * Each process's list of threads is under its signal lock, taken after
 * the tree's. The rest of the processes' work is in the files beside this
 * one, each one subject (kernel/task/README.md); what they share of this
 * file is in kernel/task/process_internal.h.
 */
#include "kernel/task/process.h"
#include "kernel/task/process_internal.h"
#include "kernel/task/exec.h"
#include "kernel/task/kthread.h"
#include "kernel/task/thread.h"
#include "kernel/tty/tty.h"
#include "kernel/fs/cwd.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/errno.h"
#include "sched/platform.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/user.h"
#include "lib/string.h"

struct wait_queue tree = WAIT_QUEUE_INIT(tree, "process tree");
struct list_node all_processes = LIST_HEAD_INIT(all_processes);

struct process *process_create(struct mm *mm, struct fdtable *files)
{
	struct process *proc = kzalloc(sizeof(*proc));
	if (!proc)
		return NULL;
	proc->mm = mm;
	proc->files = files;
	signals_init(&proc->signals);
	list_init(&proc->children);
	list_init(&proc->threads);
	return proc;
}

/* Linux's threads-max: a task for every 32 pages of memory (a 16 KiB
 * kernel stack in every eighth of it), so that forking and cloning stop
 * with EAGAIN while memory is left for the tasks there are. And never so
 * many that the kernel runs out of stacks for its own tasks. */
static int threads_max(void)
{
	return (int)MIN(pmm_total_pages() / 32, (size_t)KSTACK_SLOTS - 64);
}

int process_add_thread(struct process *proc, const struct thread *creator, bool fork, const char *name,
		       void (*entry)(void *arg), void *arg, struct task **out)
{
	/* Two CPUs creating at once may pass it by one each: a bound, not a count. */
	if (tasks_alive() >= threads_max())
		return -EAGAIN;
	struct fpu_state *fpu = kmalloc(sizeof(*fpu));
	struct thread *t = kzalloc(sizeof(*t));
	struct task *p = fpu && t ? task_create_child(creator ? creator->task : NULL, name, entry, arg) : NULL;
	if (!p) {
		kfree(fpu);
		kfree(t);
		return -ENOMEM;
	}
	fpu_state_init(fpu);
	p->fpu = fpu;
	p->process = proc;
	p->thread = t;
	t->task = p;
	signals_thread_init(t, creator, fork);
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	list_add_tail(&proc->threads, &t->node);
	if (proc->group_exiting) {
		/* Born into an exit_group(): it goes at its first entry to the kernel. */
		struct sig_info info = { .signo = SIGKILL, .pid = proc->pid };
		signal_send_thread_locked(proc, t, &info);
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	/* Nobody joins a thread's task: the process (its parent's wait), or a
	 * futex on its tid (pthread_join), is what is waited for. Detached, it
	 * is freed as it exits; it has not started, so it is still there for
	 * the caller to start. */
	task_detach(p);
	*out = p;
	return 0;
}

int process_start(struct process *proc, struct process *parent, const char *name,
		  void (*entry)(void *arg), void *arg, struct task **out)
{
	/* A forked child's thread is a copy of the forking one. */
	const struct thread *creator = parent ? current()->thread : NULL;
	struct task *p;
	int err = process_add_thread(proc, creator, true, name, entry, arg, &p);
	if (err)
		return err;
	proc->pid = p->pid;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	proc->parent = parent;
	/* A child is in its parent's group and session, with its limits; a
	 * process the kernel starts leads a session of its own, as a login. */
	proc->pgid = parent ? parent->pgid : proc->pid;
	proc->sid = parent ? parent->sid : proc->pid;
	memcpy(proc->rlimits, parent ? parent->rlimits : default_rlimits, sizeof(proc->rlimits));
	proc->cwd = parent ? cwd_get(parent) : inode_get(fs_root());
	proc->umask = parent ? __atomic_load_n(&parent->umask, __ATOMIC_RELAXED) : 022;
	if (parent && parent->cmdline_len) {    /* a fork runs its parent's program */
		proc->cmdline = kmalloc(parent->cmdline_len);
		if (proc->cmdline) {
			memcpy(proc->cmdline, parent->cmdline, parent->cmdline_len);
			proc->cmdline_len = parent->cmdline_len;
		}
	}
	if (parent)
		list_add_tail(&parent->children, &proc->sibling);
	list_add_tail(&all_processes, &proc->all);
	spin_unlock_irqrestore(&tree.lock, flags);
	*out = p;
	return 0;
}

/* A process's task starts here, in the kernel, already on the process's
 * page tables (the switch loaded them): straight to the program's entry. */
static void enter_program(void *arg)
{
	(void)arg;
	const struct mm *mm = current()->process->mm;
	arch_enter_user(mm->entry, mm->start_stack);
}

/* The task's name: the file's, as Linux's comm ("/bin/hello" is "hello"). */
const char *process_name_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int process_spawn(const char *path, const char *const argv[], const char *const envp[])
{
	struct mm *mm;
	int err = exec_load(NULL, path, argv, envp, &mm);
	if (err)
		return err;
	struct fdtable *files = fdtable_create_console();
	struct process *proc = files ? process_create(mm, files) : NULL;
	struct task *p;
	if (proc)
		proc->cmdline = cmdline_make(argv, &proc->cmdline_len);
	if (!proc || process_start(proc, NULL, process_name_of(path), enter_program, NULL, &p) < 0) {
		if (proc)
			kfree(proc->cmdline);
		kfree(proc);
		if (files)
			fdtable_put(files);
		mm_destroy(mm);
		return -ENOMEM;
	}
	tty_offer(proc->sid, proc->pgid);           /* as a getty would: the console is its terminal */
	task_start(p);
	return proc->pid;
}

/* wait4's and kill's pid (process.h), for the calling process. */
struct selection select_by_pid(int pid)
{
	if (pid > 0)
		return (struct selection){ ONE_PID, pid };
	if (pid == -1)
		return (struct selection){ ANY, 0 };
	return (struct selection){ ONE_GROUP, pid == 0 ? current()->process->pgid : -pid };
}

/* Under the tree lock. */
bool selected(const struct process *proc, struct selection sel)
{
	assert_held(&tree.lock);
	return sel.which == ANY || (sel.which == ONE_PID ? proc->pid : proc->pgid) == sel.id;
}

/* Told, with no lock held, after processes were released: /proc drops
 * their directories (kernel/fs/proc/proc_pid.c), which sits above this
 * folder. */
static void (*released_hook)(void);

void process_on_release(void (*hook)(void))
{
	released_hook = hook;
}

void released(void)
{
	if (released_hook)
		released_hook();
}

/* Under the tree lock: gone from the tree, and freed. */
void release(struct process *proc)
{
	assert_held(&tree.lock);
	if (proc->parent)
		list_remove(&proc->sibling);
	list_remove(&proc->all);
	kfree(proc->cmdline);
	kfree(proc);
}

uint64_t process_tree_lock(void)
{
	return spin_lock_irqsave(&tree.lock);
}

void process_tree_unlock(uint64_t flags)
{
	spin_unlock_irqrestore(&tree.lock, flags);
}

void process_for_each_locked(void (*fn)(struct process *proc, void *arg), void *arg)
{
	assert_held(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes)
		fn(list_entry(n, struct process, all), arg);
}

struct process *process_find_locked(int pid)
{
	assert_held(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pid == pid)
			return proc;
	}
	return NULL;
}

char *cmdline_make(const char *const argv[], size_t *len)
{
	char *buf = kmalloc(CMDLINE_MAX);
	size_t used = 0;
	for (int i = 0; buf && argv[i] && used < CMDLINE_MAX; i++) {
		size_t n = MIN(strlen(argv[i]) + 1, CMDLINE_MAX - used);
		memcpy(buf + used, argv[i], n);
		used += n;
	}
	*len = buf ? used : 0;
	return buf;
}

void process_note_exec(char *cmdline, size_t len)
{
	struct process *proc = current()->process;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	proc->execed = true;
	char *old = proc->cmdline;
	proc->cmdline = cmdline;
	proc->cmdline_len = len;
	spin_unlock_irqrestore(&tree.lock, flags);
	kfree(old);
}

int process_set_parent_death_signal(int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	current()->process->parent_death_signal = signal;
	spin_unlock_irqrestore(&tree.lock, flags);
	return 0;
}

int process_parent_pid(void)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	const struct process *parent = current()->process->parent;
	int ppid = parent ? parent->pid : 0;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ppid;
}
