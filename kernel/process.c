/*
 * Processes as tasks: their tree, their threads, their start and their
 * end. A thread's task starts in the kernel, only to drop to ring 3
 * (enter_program, or a clone's resume_child in kernel/fork.c); from then
 * on it enters the kernel by system calls and interrupts, and leaves in
 * thread_exit() (exit()) or process_exit() (exit_group(), or killed by a
 * fault of its own or a signal, which ends every thread). The last thread
 * to leave ends the process.
 *
 * One lock guards the whole tree (every process's parent, children and
 * state): the lock of the wait queue where parents wait for a child to
 * end. A waiter checks for an ended child under it; an ending child
 * changes its state and wakes the queue under it: no end goes unseen.
 * Each process's list of threads is under its signal lock, taken after
 * the tree's.
 */
#include "kernel/process.h"
#include "kernel/tty.h"
#include "kernel/thread.h"
#include "kernel/futex.h"
#include "kernel/exec.h"
#include "kernel/fdtable.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/cwd.h"
#include "kernel/fs.h"
#include "kernel/path_walk.h"
#include "kernel/ramfs.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "sched/api.h"
#include "sched/wait.h"
#include "sched/platform.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"
#include "lib/string.h"
#include "lib/time_units.h"

static struct wait_queue tree = WAIT_QUEUE_INIT(tree, "process tree");
static struct list_node all_processes = LIST_HEAD_INIT(all_processes);

/* Linux's limits for a new login, but descriptors: the table holds 256
 * (fdtable.h), which is this kernel's nr_open. */
#define UNLIMITED { RLIM_INFINITY, RLIM_INFINITY }
static const struct rlimit default_rlimits[RLIM_NLIMITS] = {
	UNLIMITED,                            /* CPU */
	UNLIMITED,                            /* FSIZE */
	UNLIMITED,                            /* DATA */
	{ 8 << 20, RLIM_INFINITY },           /* STACK */
	{ 0, RLIM_INFINITY },                 /* CORE */
	UNLIMITED,                            /* RSS */
	{ 4096, 4096 },                       /* NPROC */
	{ FDTABLE_SIZE, FDTABLE_SIZE },       /* NOFILE */
	{ 8 << 20, 8 << 20 },                 /* MEMLOCK */
	UNLIMITED,                            /* AS */
	UNLIMITED,                            /* LOCKS */
	{ 4096, 4096 },                       /* SIGPENDING */
	{ 819200, 819200 },                   /* MSGQUEUE */
	{ 0, 0 },                             /* NICE */
	{ 0, 0 },                             /* RTPRIO */
	UNLIMITED,                            /* RTTIME */
};

static struct cputime cputime_sum(struct cputime a, struct cputime b)
{
	return (struct cputime){ a.user_ns + b.user_ns, a.system_ns + b.system_ns };
}

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
	const struct thread *creator = parent ? sched_current()->thread : NULL;
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
	const struct mm *mm = sched_current()->process->mm;
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

/* Which processes a wait or a kill means: one pid, one process group, or all. */
enum which { ANY, ONE_PID, ONE_GROUP };
struct selection {
	enum which which;
	int id;
};

/* wait4's and kill's pid (process.h), for the calling process. */
static struct selection select_by_pid(int pid)
{
	if (pid > 0)
		return (struct selection){ ONE_PID, pid };
	if (pid == -1)
		return (struct selection){ ANY, 0 };
	return (struct selection){ ONE_GROUP, pid == 0 ? sched_current()->process->pgid : -pid };
}

/* Under the tree lock. */
static bool selected(const struct process *proc, struct selection sel)
{
	assert_held(&tree.lock);
	return sel.which == ANY || (sel.which == ONE_PID ? proc->pid : proc->pgid) == sel.id;
}

/* Under the tree lock: gone from the tree, and freed. */
static void release(struct process *proc)
{
	assert_held(&tree.lock);
	if (proc->parent)
		list_remove(&proc->sibling);
	list_remove(&proc->all);
	kfree(proc->cmdline);
	kfree(proc);
}

/* Sleep until `found` says a child is ready or that none will be: it runs
 * under the tree lock, returns nonzero to stop (and what to return). A
 * signal ends the wait with -ERESTARTSYS (the kernel's own waits get none). */
static int wait_in_tree(int (*found)(void *arg), void *arg, bool nohang)
{
	for (;;) {
		uint64_t flags = wait_prepare(&tree);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against a signal's sender: sched/wait.h */
		int ret = task_signal_pending(sched_current()) ? -ERESTARTSYS : found(arg);
		if (ret || nohang) {
			wait_cancel(&tree, flags);
			return ret;
		}
		wait_sleep(&tree, flags);
	}
}

struct child_wait {
	struct process *parent;           /* NULL: a process the kernel started */
	struct selection sel;
	int options;                      /* WEXITED, WSTOPPED, WCONTINUED: what to report; WNOWAIT:
	                                     report it, and leave it to be waited for again */
	int status;
	struct cputime time;
};

/* Under the tree lock: a stop or continue of running child c that w wants
 * told, its wait status (taken, unless WNOWAIT); else 0. */
static int take_report(struct process *c, const struct child_wait *w)
{
	assert_held(&tree.lock);
	struct signals *s = &c->signals;
	assert_irqs_off();
	spin_lock(&s->lock);
	int status = s->wait_report;
	bool wanted = status && (w->options & (wait_status_is_stop(status) ? WSTOPPED : WCONTINUED));
	if (wanted && !(w->options & WNOWAIT))
		s->wait_report = 0;
	spin_unlock(&s->lock);
	return wanted ? status : 0;
}

/* Under the tree lock: the pid of a child with something to report: an
 * end (the child is then released) or, if asked, a stop or continue; else
 * 0 while a wanted child still runs, -ECHILD if none. */
static int reap_ended_child(void *arg)
{
	assert_held(&tree.lock);
	struct child_wait *w = arg;
	struct list_node *n, *tmp;
	bool any = false;
	list_for_each_safe(n, tmp, w->parent ? &w->parent->children : &all_processes) {
		struct process *c = w->parent ? list_entry(n, struct process, sibling) :
						list_entry(n, struct process, all);
		if (c->parent != w->parent || c->orphan || !selected(c, w->sel))
			continue;
		any = true;
		if (!c->exited) {
			w->status = take_report(c, w);
			if (w->status)
				return c->pid;
			continue;
		}
		if (!(w->options & WEXITED))
			continue;
		int pid = c->pid;
		w->status = c->wait_status;
		w->time = cputime_sum(c->time, c->children_time);
		if (w->options & WNOWAIT)
			return pid;
		if (w->parent)
			w->parent->children_time = cputime_sum(w->parent->children_time, w->time);
		release(c);
		return pid;
	}
	return any ? 0 : -ECHILD;
}

int process_wait_child(int pid, int options, int *status, struct cputime *time)
{
	struct child_wait w = { .parent = sched_current()->process, .sel = select_by_pid(pid),
				.options = WEXITED | (options & (WUNTRACED | WCONTINUED)) };
	int ret = wait_in_tree(reap_ended_child, &w, options & WNOHANG);
	if (ret > 0) {
		*status = w.status;
		*time = w.time;
	}
	return ret;
}

int process_wait(int pid, int *status)
{
	if (pid <= 0)
		return -ECHILD;
	struct child_wait w = { .parent = NULL, .sel = { ONE_PID, pid }, .options = WEXITED };
	int ret = wait_in_tree(reap_ended_child, &w, false);
	if (ret > 0 && status)
		*status = w.status;
	return ret;
}

int process_waitid(int idtype, int id, int options, int *pid, int *status)
{
	enum { P_ALL = 0, P_PID = 1, P_PGID = 2 };
	struct process *me = sched_current()->process;
	struct child_wait w = { .parent = me, .options = options };
	if (idtype == P_ALL)
		w.sel = (struct selection){ ANY, 0 };
	else if (idtype == P_PID && id > 0)
		w.sel = (struct selection){ ONE_PID, id };
	else if (idtype == P_PGID && id >= 0)
		w.sel = (struct selection){ ONE_GROUP, id ? id : me->pgid };
	else
		return -EINVAL;
	int ret = wait_in_tree(reap_ended_child, &w, options & WNOHANG);
	*pid = ret > 0 ? ret : 0;
	*status = w.status;
	return ret < 0 ? ret : 0;
}

struct cputime process_children_cpu_time(void)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct cputime time = sched_current()->process->children_time;
	spin_unlock_irqrestore(&tree.lock, flags);
	return time;
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

int process_setpgid(int pid, int pgid)
{
	struct process *me = sched_current()->process;
	if (pgid < 0)
		return -EINVAL;
	int ret = 0;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? me : process_find_locked(pid);
	if (pgid == 0)
		pgid = p ? p->pid : 0;
	if (!p || p->exited || (p != me && p->parent != me))
		ret = -ESRCH;                     /* only itself or a child of its own */
	else if (p->sid != me->sid || p->sid == p->pid)
		ret = -EPERM;                     /* another session, or a session leader */
	else if (p != me && p->execed)
		ret = -EACCES;
	else if (pgid != p->pid) {
		/* Joining a group: it must exist, in the same session. */
		ret = -EPERM;
		struct list_node *n;
		list_for_each(n, &all_processes) {
			struct process *q = list_entry(n, struct process, all);
			if (q->pgid == pgid && q->sid == me->sid && !q->exited)
				ret = 0;
		}
	}
	if (!ret)
		p->pgid = pgid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

/* getpgid and getsid: pid 0 is the caller. */
static int get_group_or_session(int pid, bool session)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? sched_current()->process : process_find_locked(pid);
	int ret = !p ? -ESRCH : session ? p->sid : p->pgid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_getpgid(int pid)
{
	return pid < 0 ? -ESRCH : get_group_or_session(pid, false);
}

int process_getsid(int pid)
{
	return pid < 0 ? -ESRCH : get_group_or_session(pid, true);
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
	struct process *proc = sched_current()->process;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	proc->execed = true;
	char *old = proc->cmdline;
	proc->cmdline = cmdline;
	proc->cmdline_len = len;
	spin_unlock_irqrestore(&tree.lock, flags);
	kfree(old);
}

int process_setsid(void)
{
	struct process *me = sched_current()->process;
	int ret = me->pid;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes)   /* a group leader, or its group lives on elsewhere */
		if (list_entry(n, struct process, all)->pgid == me->pid)
			ret = -EPERM;
	if (ret > 0)
		me->sid = me->pgid = me->pid;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

long process_rlimit(int pid, int resource, const struct rlimit *new, struct rlimit *old)
{
	if (new && (new->cur > new->max || (resource == RLIMIT_NOFILE && new->max > FDTABLE_SIZE)))
		return new->cur > new->max ? -EINVAL : -EPERM;
	long ret = 0;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *p = pid == 0 ? sched_current()->process : process_find_locked(pid);
	if (!p || p->exited) {
		ret = -ESRCH;
	} else {
		*old = p->rlimits[resource];
		if (new)
			p->rlimits[resource] = *new;   /* root may raise a hard limit */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

/* The CPU time of proc's threads, those that have ended too. */
static struct cputime threads_time(struct process *proc)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	struct cputime time = proc->dead_threads_time;
	struct list_node *n;
	list_for_each(n, &proc->threads)
		time = cputime_sum(time, task_cputime(list_entry(n, struct thread, node)->task));
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return time;
}

struct cputime process_self_cpu_time(void)
{
	return threads_time(sched_current()->process);
}

int process_thread_cpu_time(int tid, struct cputime *time)
{
	struct process *proc = sched_current()->process;
	int ret = -ESRCH;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct task *p = list_entry(n, struct thread, node)->task;
		if (p->pid == tid) {
			*time = task_cputime(p);
			ret = 0;
		}
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return ret;
}

int process_cpu_time(int pid, struct cputime *time)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct process *proc = process_find_locked(pid);
	/* It cannot end meanwhile: ending takes this lock. */
	if (proc)
		*time = proc->exited ? proc->time : threads_time(proc);
	spin_unlock_irqrestore(&tree.lock, flags);
	return proc ? 0 : -ESRCH;
}

int process_set_parent_death_signal(int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	sched_current()->process->parent_death_signal = signal;
	spin_unlock_irqrestore(&tree.lock, flags);
	return 0;
}

int process_parent_pid(void)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	const struct process *parent = sched_current()->process->parent;
	int ppid = parent ? parent->pid : 0;
	spin_unlock_irqrestore(&tree.lock, flags);
	return ppid;
}

/* Under the tree lock: does member keep its group from being orphaned
 * (POSIX)? It does if its parent, in another group of the same session,
 * could stop and continue it by job control; `leaving` and its children
 * do not count, as it ends. */
static bool holds_group(const struct process *member, const struct process *leaving)
{
	assert_held(&tree.lock);
	const struct process *parent = member->parent;
	return member != leaving && !member->exited && parent && parent != leaving && parent->pgid != member->pgid &&
	       parent->sid == member->sid;
}

static bool group_orphaned_locked(int pgid, const struct process *leaving)
{
	assert_held(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid == pgid && holds_group(proc, leaving))
			return false;
	}
	return true;
}

/* Under the tree lock: proc has stopped (by sig) or continued (sig
 * SIGCONT). Its parent gets SIGCHLD unless it asked SA_NOCLDSTOP, and a
 * waiting parent is woken. */
static void tell_parent_stop_or_continue(struct process *proc, int sig)
{
	assert_held(&tree.lock);
	if (!proc->parent)
		return;
	struct signals *s = &proc->parent->signals;
	assert_irqs_off();
	spin_lock(&s->lock);
	bool quiet = s->action[SIGCHLD - 1].flags & SA_NOCLDSTOP;
	spin_unlock(&s->lock);
	struct sig_info info = { .signo = SIGCHLD, .code = sig == SIGCONT ? CLD_CONTINUED : CLD_STOPPED,
				 .pid = proc->pid, .status = sig };
	if (!quiet)
		signal_send(proc->parent, &info);
	wake_up_locked(&tree, INT32_MAX);
}

void process_stop(int sig)
{
	struct process *proc = sched_current()->process;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	/* In an orphaned group the terminal's stops are discarded, as POSIX
	 * asks: nobody could continue it. SIGSTOP stops all the same. */
	bool discarded = sig != SIGSTOP && group_orphaned_locked(proc->pgid, NULL);
	if (!discarded && signal_stop(proc, sig))
		tell_parent_stop_or_continue(proc, sig);
	spin_unlock_irqrestore(&tree.lock, flags);
}

/* Under the tree lock: SIGCONT continues proc whatever it does with the
 * signal itself (POSIX). */
static void continue_if_sigcont(struct process *proc, int signal)
{
	assert_held(&tree.lock);
	if (signal == SIGCONT && signal_continue(proc))
		tell_parent_stop_or_continue(proc, SIGCONT);
}

/* Under the tree lock: sig to each selected process but `skip`, from
 * `info` (kill()'s or the kernel's). 0, or -ESRCH if none was selected.
 * kill(-1, sig) also spares what the kernel started itself (init=,
 * /bin/init, a run= program), as Linux spares init, process 1: a program
 * may not take the machine's first program down with everything else. */
static int send_to_selected(struct selection sel, const struct process *skip, const struct sig_info *info)
{
	assert_held(&tree.lock);
	int ret = -ESRCH;
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (!selected(proc, sel) || proc == skip || (sel.which == ANY && !proc->parent && !proc->orphan))
			continue;
		ret = 0;                      /* signal 0 only asks whether it exists, as a zombie too */
		if (info->signo && !proc->exited) {
			continue_if_sigcont(proc, info->signo);
			signal_send(proc, info);
		}
	}
	return ret;
}

int process_kill(int pid, int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;                    /* -pid would overflow: Linux's answer */
	struct process *me = sched_current()->process;
	struct sig_info info = { .signo = signal, .pid = me ? me->pid : 0 };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	int ret = send_to_selected(select_by_pid(pid), pid == -1 ? me : NULL, &info);
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_signal_group(int pgid, int signal)
{
	struct sig_info info = { .signo = signal, .code = SI_KERNEL };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	int ret = send_to_selected((struct selection){ ONE_GROUP, pgid }, NULL, &info);
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_group_in_session(int pgid, int sid)
{
	int ret = -ESRCH;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid == pgid && !proc->exited)
			ret = proc->sid == sid ? 0 : -EPERM;   /* a group lives in one session */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

bool process_group_orphaned(int pgid)
{
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	bool orphaned = group_orphaned_locked(pgid, NULL);
	spin_unlock_irqrestore(&tree.lock, flags);
	return orphaned;
}

/* Under the tree lock: if leaving's end orphans group pgid and a member
 * is stopped, nobody is left who could continue it, so POSIX has each
 * member sent SIGHUP, then SIGCONT. One walk tells both. */
static void hang_up_if_orphaned(int pgid, struct process *leaving)
{
	bool stopped = false;
	struct list_node *n;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->pgid != pgid)
			continue;
		if (holds_group(proc, leaving))
			return;                       /* not orphaned */
		stopped |= !proc->exited && __atomic_load_n(&proc->signals.stopped, __ATOMIC_RELAXED);
	}
	if (!stopped)
		return;
	struct selection group = { ONE_GROUP, pgid };
	const struct sig_info hup = { .signo = SIGHUP, .code = SI_KERNEL }, cont = { .signo = SIGCONT, .code = SI_KERNEL };
	send_to_selected(group, leaving, &hup);
	send_to_selected(group, leaving, &cont);
}

/* Under the tree lock, as proc ends: the groups it may have held, its own
 * and those of its children in its session, each checked as above. */
static void hang_up_orphaned_groups(struct process *proc)
{
	assert_held(&tree.lock);
	if (holds_group(proc, NULL))
		hang_up_if_orphaned(proc->pgid, proc);
	struct list_node *n;
	list_for_each(n, &proc->children) {
		struct process *c = list_entry(n, struct process, sibling);
		if (c->pgid != proc->pgid && c->sid == proc->sid)
			hang_up_if_orphaned(c->pgid, proc);
	}
}

int process_nice(bool all, int pgid, bool set, int nice, int *lowest)
{
	struct process *me = sched_current()->process;
	int ret = -ESRCH;
	*lowest = MAX_NICE;
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n, *m;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->exited || (!all && proc->pgid != (pgid ? pgid : me->pgid)))
			continue;
		assert_irqs_off();
		spin_lock(&proc->signals.lock);
		list_for_each(m, &proc->threads) {
			int pid = list_entry(m, struct thread, node)->task->pid, now;
			if (set)
				sched_set_nice(pid, nice);
			if (sched_get_nice(pid, &now) == 0 && now < *lowest)
				*lowest = now;
			ret = 0;
		}
		spin_unlock(&proc->signals.lock);
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

int process_kill_thread(int tgid, int tid, int signal)
{
	if (signal < 0 || signal > NSIG)
		return -EINVAL;
	int ret = -ESRCH;
	struct sig_info info = { .signo = signal, .pid = sched_current()->process->pid };
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	struct list_node *n, *m;
	list_for_each(n, &all_processes) {
		struct process *proc = list_entry(n, struct process, all);
		if (proc->exited || (tgid && proc->pid != tgid))
			continue;
		assert_irqs_off();
		spin_lock(&proc->signals.lock);
		list_for_each(m, &proc->threads) {
			struct thread *t = list_entry(m, struct thread, node);
			if (t->task->pid != tid)
				continue;
			ret = 0;
			if (signal)
				signal_send_thread_locked(proc, t, &info);
		}
		spin_unlock(&proc->signals.lock);
		if (ret == 0)
			continue_if_sigcont(proc, signal);   /* after: it takes the parent's signal lock */
	}
	spin_unlock_irqrestore(&tree.lock, flags);
	return ret;
}

void exit_to_user(struct user_regs *regs)
{
	struct task *me = sched_current();
	if (task_signal_pending(me) || me->thread->restarting)
		signal_deliver(regs);
}

/* Under the tree lock: proc's children will have nobody to wait for them. */
static void orphan_children(struct process *proc)
{
	assert_held(&tree.lock);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &proc->children) {
		struct process *c = list_entry(n, struct process, sibling);
		list_remove(&c->sibling);
		c->parent = NULL;
		c->orphan = true;
		if (c->exited) {
			release(c);
		} else if (c->parent_death_signal) {
			struct sig_info info = { .signo = c->parent_death_signal, .pid = proc->pid };
			signal_send(c, &info);
		}
	}
}

/* Under the tree lock: SIGCHLD to proc's parent, as Linux sends it. False
 * if the parent ignores SIGCHLD (or asked SA_NOCLDWAIT): then, by POSIX,
 * it does not wait for its children, which go as they end. */
static bool tell_parent(struct process *proc)
{
	assert_held(&tree.lock);
	struct signals *s = &proc->parent->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	const struct k_sigaction *act = &s->action[SIGCHLD - 1];
	bool waits = act->handler != SIG_IGN && !(act->flags & SA_NOCLDWAIT);
	spin_unlock_irqrestore(&s->lock, flags);
	int killed_by = wait_status_signal(proc->wait_status);
	struct sig_info info = {
		.signo = SIGCHLD, .code = killed_by ? CLD_KILLED : CLD_EXITED, .pid = proc->pid,
		.status = killed_by ? killed_by : wait_status_code(proc->wait_status),
	};
	signal_send(proc->parent, &info);
	return waits;
}

/* The process's last thread has left: its address space and descriptors
 * go, and its parent hears of its end. */
static void end_process(struct process *proc)
{
	if (proc->sid == proc->pid)
		tty_session_ended(proc->sid);     /* a leader's sid is its for good */
	mm_destroy(proc->mm);
	fdtable_put(proc->files);         /* may wake a pipe's other end: before the parent hears */
	inode_put(proc->cwd);
	signals_exit(&proc->signals);
	uint64_t flags = spin_lock_irqsave(&tree.lock);
	hang_up_orphaned_groups(proc);
	orphan_children(proc);              /* and send those that asked their parent-death signal */
	proc->time = proc->dead_threads_time;
	proc->wait_status = proc->exit_status;
	proc->exited = true;
	if (proc->parent && !tell_parent(proc))
		proc->orphan = true;          /* the parent will not wait: as if it had none */
	if (proc->orphan)
		release(proc);
	wake_up_locked(&tree, INT32_MAX);   /* a waiting parent: this child, or none left */
	spin_unlock_irqrestore(&tree.lock, flags);
}

/* CLONE_CHILD_CLEARTID, set_tid_address(): the C library's thread join
 * waits on this word, for 0. */
static void clear_child_tid(struct task *me)
{
	uint32_t zero = 0;
	if (me->clear_child_tid && copy_to_user((void *)me->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake(me->clear_child_tid, true, 1, FUTEX_BITSET_ANY);
}

/* The calling thread leaves its process; the last one out ends it. */
static void __attribute__((noreturn)) leave(int status)
{
	struct task *me = sched_current();
	struct thread *t = me->thread;
	struct process *proc = me->process;
	clear_child_tid(me);
	struct cputime time = task_cputime(me);
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	list_remove(&t->node);
	bool last = list_empty(&proc->threads);
	if (!proc->group_exiting)
		proc->exit_status = status;   /* without exit_group(), the last thread's says (as Linux) */
	proc->dead_threads_time = cputime_sum(proc->dead_threads_time, time);
	/* A kernel task from here on, in the step that takes it off the list:
	 * the last thread out destroys the address space, and none that left
	 * before it may be switched in on those tables again. */
	me->process = NULL;
	me->thread = NULL;
	mm_activate(NULL);
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	kfree(me->fpu);
	me->fpu = NULL;
	kfree(t);
	if (last)
		end_process(proc);
	else
		wake_up_all(&tree);       /* an execve() waiting for the other threads to go */
	task_exit(status);
}

/* Under proc's signal lock: every thread but `keep` is to end. */
static void kill_other_threads(struct process *proc, struct thread *keep)
{
	assert_held(&proc->signals.lock);
	struct sig_info info = { .signo = SIGKILL, .pid = proc->pid };
	struct list_node *n;
	list_for_each(n, &proc->threads) {
		struct thread *t = list_entry(n, struct thread, node);
		if (t != keep)
			signal_send_thread_locked(proc, t, &info);
	}
}

void process_exit(int status)
{
	struct task *me = sched_current();
	struct process *proc = me->process;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	if (!proc->group_exiting) {
		proc->group_exiting = true;
		proc->exit_status = status;
		kill_other_threads(proc, me->thread);
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	leave(status);
}

void thread_exit(int status)
{
	leave(status);
}

/* Is the caller its process's only thread? */
static bool alone(struct process *proc)
{
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool one = proc->threads.next == proc->threads.prev;
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return one;
}

bool process_become_single_threaded(void)
{
	struct task *me = sched_current();
	struct process *proc = me->process;
	if (alone(proc))
		return true;
	uint64_t flags = spin_lock_irqsave(&proc->signals.lock);
	bool lost = proc->group_exiting;  /* to an exit_group() or another execve() */
	if (!lost) {
		proc->group_exiting = true;
		kill_other_threads(proc, me->thread);
	}
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	if (lost)
		return false;
	wait_event(&tree, alone(proc));   /* each leaving thread wakes the tree */
	flags = spin_lock_irqsave(&proc->signals.lock);
	proc->group_exiting = false;
	spin_unlock_irqrestore(&proc->signals.lock, flags);
	return true;
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

bool process_fault_signal(int signal, uint64_t addr)
{
	struct task *me = sched_current();
	struct process *proc = me->process;
	struct signals *s = &proc->signals;
	uint64_t flags = spin_lock_irqsave(&s->lock);
	bool handled = s->action[signal - 1].handler > SIG_IGN && !(me->thread->blocked & sigmask_of(signal));
	if (handled) {
		struct sig_info info = { .signo = signal, .fault = true, .addr = addr };
		signal_send_thread_locked(proc, me->thread, &info);
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return handled;
}

/* The program's handler runs next, if it has one; else the fault ends it. */
void user_fault(const char *what, uint64_t addr, struct trap_frame *f)
{
	struct task *me = sched_current();
	if (f->vector == VEC_PAGE_FAULT && me->thread->fault_out_of_memory) {
		/* The access was the program's right, but no page was left for
		 * it: the process is killed, as Linux's OOM killer kills (it
		 * picks the largest; here the one that asked is, under one
		 * program's exhaustion, that one), and no handler can run. */
		me->thread->fault_out_of_memory = false;
		pr_info("Out of memory: killed process %d (%s) at a page fault at %llx", me->process->pid, me->name,
		       (unsigned long long)addr);
		irq_enable();
		process_exit(wait_status_killed(SIGKILL));
	}
	int signal = fault_signal(f->vector);
	if (process_fault_signal(signal, addr))
		return;
	/* Linux's lines, so that tools that read them read ours. */
	if (f->vector == VEC_PAGE_FAULT)
		pr_info("%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx in %s[%d]", me->name, me->pid,
			(unsigned long long)addr, (unsigned long long)f->rip, (unsigned long long)f->rsp,
			(unsigned long long)f->error_code, me->name, me->pid);
	else
		pr_info("%s[%d]: trap %s ip %016llx sp %016llx error %llx in %s[%d]", me->name, me->pid, what,
			(unsigned long long)f->rip, (unsigned long long)f->rsp, (unsigned long long)f->error_code,
			me->name, me->pid);
	irq_enable();                     /* exceptions arrive with interrupts off; exiting sleeps */
	process_exit(wait_status_killed(signal));
}
