/*
 * User processes. A process is a program's address space and whatever else
 * its threads share; each thread is a task (kernel/task/kthread.h) whose `process`
 * points here, and the scheduler sees only tasks. Its pid is its first
 * thread's (Linux's tgid); each thread's id is its task's pid.
 * docs/userspace.md tells the whole.
 *
 * Processes form a tree, as on Linux: fork() makes a child, and a parent
 * learns of its children's ends with wait4(). A process started by the
 * kernel (process_spawn) has no parent: the kernel waits for it with
 * process_wait(). A process whose parent ends first is an orphan: nobody
 * will wait for it, so it is freed as it ends (Linux gives orphans to init
 * instead; there is no init here that would wait).
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include "kernel/mm/mm.h"
#include "kernel/task/signal/signal.h"
#include "kernel/time/cputime.h"
#include "lib/list.h"

#define SYSCALL_NR_TRACKED 512            /* numbers below this are reported missing one by one */

/* Resource limits (getrlimit): Linux's numbering, soft and hard. */
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0ULL)
enum { RLIMIT_NOFILE = 7 };
struct rlimit {
	uint64_t cur, max;
};

struct fdtable;
struct inode;
struct task;
struct thread;
struct user_regs;

struct process {
	int pid;                          /* its first thread's: set once */
	/* Shared by its threads, freed as the last one leaves. */
	struct mm *mm;
	struct fdtable *files;
	struct inode *cwd;                /* the working directory: kernel/fs/cwd.h */
	unsigned umask;                   /* umask(): atomic */
	/* System calls the program was told are not implemented: each is
	 * logged once (kernel/entry/syscall.c). */
	uint64_t reported_missing[SYSCALL_NR_TRACKED / 64 + 1];   /* + 1: all the larger numbers */
	uint64_t robust_list;             /* set_robust_list(): the C library's, for threads */
	uint64_t timer_slack_ns;          /* prctl(PR_SET_TIMERSLACK), only told back; 0: the default */

	/* The tree, and how it ended: under the process tree's lock (process.c). */
	struct process *parent;           /* NULL: started by the kernel, or orphaned */
	int pgid, sid;                    /* its process group and session */
	bool execed;                      /* has run execve() since fork (setpgid's EACCES) */
	struct rlimit rlimits[RLIM_NLIMITS];
	bool orphan;                      /* nobody will wait: freed as it ends */
	struct list_node children;        /* its children, by sibling */
	struct list_node sibling;
	struct list_node all;             /* in the list of every process */
	bool exited;                      /* ended, and waiting to be waited for (a zombie) */
	int wait_status;                  /* Linux's wait status, once exited */
	struct cputime time;              /* the CPU time its threads had, once exited */
	struct cputime children_time;     /* of the children it waited for, and theirs */

	struct signals signals;           /* what it does with each signal, and those waiting */
	/* Its threads: under the signal lock. */
	struct list_node threads;         /* struct thread, by node; empty once it has ended */
	bool group_exiting;               /* exit_group() or a fatal signal: every thread is to go */
	int exit_status;                  /* the wait status: the group's, or else its last thread's */
	struct cputime dead_threads_time; /* the CPU time of its threads that have ended */
	int parent_death_signal;          /* sent to it when its parent ends (prctl
	                                     PR_SET_PDEATHSIG), or 0: under the tree's lock */
	char *cmdline;                    /* its program's arguments (cmdline_make()): under the tree's lock */
	size_t cmdline_len;
};

/* Start the program at `path` (absolute) with these arguments and
 * environment (NULL-terminated). Everything is checked and loaded before
 * its task exists: returns the pid, or -ENOENT, -EACCES (not an
 * executable file), -ENOEXEC (not a static x86-64 ELF program), -E2BIG,
 * -ENOMEM. */
int process_spawn(const char *path, const char *const argv[], const char *const envp[]);

/* Wait for a process that process_spawn() started to end: its pid, with
 * Linux's wait status in *status; -ECHILD if pid is no such process. */
int process_wait(int pid, int *status);

/* fork(): a copy of the calling process, which returns 0 to the child with
 * regs otherwise as the parent's. The child's pid, or -ENOMEM. */
int process_fork(const struct user_regs *regs);

/* execve(): the calling process runs the program at user address upath,
 * with the NULL-terminated arrays of strings at uargv and uenvp. Returns
 * only on failure: -EFAULT, -ENOENT, -ENOTDIR, -EACCES, -ENOEXEC, -E2BIG,
 * -ENAMETOOLONG, -ENOMEM. A relative path starts at the working directory. */
long process_execve(uint64_t upath, uint64_t uargv, uint64_t uenvp);

/* The options of wait4() and waitid(), Linux's values. */
enum {
	WNOHANG = 1, WUNTRACED = 2, WSTOPPED = 2, WEXITED = 4, WCONTINUED = 8, WNOWAIT = 0x01000000,
	WALL = 0x40000000, WCLONE = (int)0x80000000,
};

/* wait4()'s core: pid > 0 that child, -1 any child, 0 any in the caller's
 * process group, < -1 any in group -pid; options WNOHANG, WUNTRACED,
 * WCONTINUED. Its pid with *status and *time (its CPU time and its
 * waited-for children's), 0 if none is ready and WNOHANG, -ECHILD if there
 * is no such child. An ended child is then gone. */
int process_wait_child(int pid, int options, int *status, struct cputime *time);

/* The CPU time of process pid (not yet waited for): 0 and *ns, or -ESRCH. */
int process_cpu_time(int pid, struct cputime *time);

/* PR_SET_PDEATHSIG: the signal the calling process gets when its parent
 * ends (0: none). 0, or -EINVAL for no such signal. */
int process_set_parent_death_signal(int signal);

/* The calling process's parent's pid; 0 if it has none. */
int process_parent_pid(void);

/* Process groups and sessions, with Linux's rules and errors. */
int process_setpgid(int pid, int pgid);
int process_getpgid(int pid);
int process_getsid(int pid);
int process_setsid(void);
/* A program's arguments as /proc/PID/cmdline shows them, each with its
 * NUL, cut at CMDLINE_MAX bytes: kmalloc'd (NULL, *len 0, when out of memory). */
#define CMDLINE_MAX 4096
char *cmdline_make(const char *const argv[], size_t *len);
/* execve() succeeded: setpgid() on the process is EACCES, and cmdline
 * (from cmdline_make) is its new command line. */
void process_note_exec(char *cmdline, size_t len);

/* prlimit64: pid 0 is the caller; new (if not NULL) replaces the limit
 * after *old is taken. 0, -EINVAL, -EPERM, -ESRCH. */
long process_rlimit(int pid, int resource, const struct rlimit *new, struct rlimit *old);
/* The CPU time of the caller's children it has waited for (and theirs). */
struct cputime process_children_cpu_time(void);

/* waitid()'s core: which children (P_ALL, P_PID id, P_PGID id), options
 * WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT (leave the child to be
 * waited for again). As process_wait_child() otherwise, with the child's
 * pid and status. */
int process_waitid(int idtype, int id, int options, int *pid, int *status);

/* kill(pid, signal), from the calling task: pid > 0 that process, 0 the
 * caller's process group, -1 every process but the caller, < -1 the group
 * -pid. 0, -ESRCH (nobody), -EINVAL. Signal 0 only asks whether pid exists
 * (a zombie does). */
int process_kill(int pid, int signal);
/* The terminal's (kernel/tty/tty.c): sig from the kernel to every process of
 * group pgid (0, or -ESRCH if it has none)... */
int process_signal_group(int pgid, int signal);
/* ...whether group pgid lives in session sid (0), elsewhere (-EPERM) or
 * nowhere (-ESRCH)... */
int process_group_in_session(int pgid, int sid);
/* ...and whether it is orphaned (POSIX): none of its processes has a
 * parent in another group of its session, a shell that could continue
 * it. A stop would then be for ever, so the terminal does not stop it. */
bool process_group_orphaned(int pgid);
/* A fault of the running program's (user_fault): its handler runs, unless
 * it has none or blocks the signal, which then ends the process (Linux's
 * rule). False if the process is to end. */
bool process_fault_signal(int signal, uint64_t addr);

/* exit_group(), or a fatal signal: the calling thread's process ends, all
 * its threads, with this wait status (unless it is ending already). */
void process_exit(int status) __attribute__((noreturn));
/* A thread takes a stop signal sig (default action): the process stops,
 * and its parent hears of it (SIGCHLD, wait4's WUNTRACED). */
void process_stop(int sig);

/* exit(): the calling thread ends; the process too, if it was the last. */
void thread_exit(int status) __attribute__((noreturn));

/* clone()'s arguments (kernel/task/fork.c acts on them). */
struct clone_args {
	uint64_t flags, stack, parent_tid, child_tid, tls;
};
/* clone(): a new process (as fork, or vfork), or a new thread of the
 * caller's (CLONE_THREAD), as flags say, Linux's rules. Its pid or tid, or
 * -EINVAL or -ENOMEM. */
long process_clone(const struct user_regs *regs, const struct clone_args *args);
/* execve() in a threaded process: every other thread ends first (Linux's
 * de_thread). False if the caller is to end instead (another thread
 * called exit_group first). */
bool process_become_single_threaded(void);
/* setpriority() and getpriority() for a process group (pgid; 0: the
 * caller's) or every process (all, what PRIO_USER means with root the one
 * user): each thread's nice is set to nice, if `set`; *lowest is the
 * lowest nice among them. 0, or -ESRCH if there is no such process. */
int process_nice(bool all, int pgid, bool set, int nice, int *lowest);
/* tkill and tgkill: signal thread tid (of process tgid, or any if 0). */
int process_kill_thread(int tgid, int tid, int signal);
/* The calling process's CPU time: its threads', the ended ones' too. */
struct cputime process_self_cpu_time(void);
/* The CPU time of thread tid of the calling process: 0, or -ESRCH. */
int process_thread_cpu_time(int tid, struct cputime *time);

/* For /proc (kernel/fs/proc/process_info.c): the tree's lock, which guards every
 * process's place in it; a process by pid, not yet waited for (NULL if
 * none); and every such process in turn. */
uint64_t process_tree_lock(void);
/* hook() is called, with no lock held, after processes were released. */
void process_on_release(void (*hook)(void));
/* hook() is called, with no lock held, after processes were released. */
void process_on_release(void (*hook)(void));
void process_tree_unlock(uint64_t flags);
struct process *process_find_locked(int pid);
void process_for_each_locked(void (*fn)(struct process *proc, void *arg), void *arg);

/* The steps process_spawn() and process_fork() share. A process holding
 * mm and files (NULL on out of memory)... */
struct process *process_create(struct mm *mm, struct fdtable *files);
/* ...and its first thread, created (not started: *out) and in the tree,
 * under parent (NULL: the kernel's), in its parent's working directory
 * with its umask (else the root, 022). 0, or -ENOMEM or -EAGAIN (as
 * process_add_thread) and nothing is done. */
int process_start(struct process *proc, struct process *parent, const char *name,
		  void (*entry)(void *arg), void *arg, struct task **out);
/* A thread of proc, created (not started: *out) and detached (its task is
 * freed as it exits): its scheduling (sched_fork) and signal mask (and
 * alternate stack, for a fork) creator's; without a creator, the kernel's
 * defaults. 0, -ENOMEM, or -EAGAIN when the kernel has as many tasks as
 * it allows (Linux's threads-max: a task per 32 pages of memory). */
int process_add_thread(struct process *proc, const struct thread *creator, bool fork, const char *name,
		       void (*entry)(void *arg), void *arg, struct task **out);
/* A program's name, from its path: "/bin/hello" is "hello" (Linux's comm). */
const char *process_name_of(const char *path);

/* Linux's wait status: the exit code in bits 8-15, or the killing signal in bits 0-6. */
static inline int wait_status_exited(int code) { return (code & 0xff) << 8; }
static inline int wait_status_killed(int signal) { return signal & 0x7f; }
static inline int wait_status_signal(int status) { return status & 0x7f; }     /* 0: it exited */
static inline int wait_status_code(int status) { return (status >> 8) & 0xff; }
static inline bool wait_status_is_stop(int status) { return (status & 0xff) == 0x7f; }
static inline bool wait_status_is_continue(int status) { return status == 0xffff; }
