/*
 * Signals, as Linux has them: each process says per signal what it wants
 * (the default action, to ignore it, or a handler), each thread blocks a
 * set of them, and a signal sent waits (pending) until its receiver
 * returns to ring 3 with it unblocked. Then the kernel acts: ends the
 * process, or builds a signal frame on the user's stack and enters the
 * handler, which returns through rt_sigreturn(). How the frame looks, and
 * why each check on the way back is there: docs/userspace.md.
 *
 * A signal is sent either to a process (kill, the alarm, SIGCHLD), and
 * any of its threads that does not block it takes it, or to one thread
 * (tkill, a fault of its own). What a thread has of its own (its mask, its
 * alternate stack, the signals sent to it alone) is in kernel/task/thread.h.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include "kernel/time/timer.h"
#include "kernel/spinlock.h"
#include "sched/wait.h"

#define NSIG 64                           /* signals 1..64; bit n - 1 of a set is signal n */
typedef uint64_t sigset_t;

enum {
	SIGHUP = 1, SIGINT = 2, SIGQUIT = 3, SIGILL = 4, SIGTRAP = 5, SIGABRT = 6, SIGBUS = 7,
	SIGFPE = 8, SIGKILL = 9, SIGUSR1 = 10, SIGSEGV = 11, SIGUSR2 = 12, SIGPIPE = 13,
	SIGALRM = 14, SIGTERM = 15, SIGSTKFLT = 16, SIGCHLD = 17, SIGCONT = 18, SIGSTOP = 19,
	SIGTSTP = 20, SIGTTIN = 21, SIGTTOU = 22, SIGURG = 23, SIGXCPU = 24, SIGXFSZ = 25,
	SIGVTALRM = 26, SIGPROF = 27, SIGWINCH = 28, SIGIO = 29, SIGPWR = 30, SIGSYS = 31,
};

static inline sigset_t sigmask_of(int sig) { return 1ULL << (sig - 1); }
#define UNBLOCKABLE (sigmask_of(SIGKILL) | sigmask_of(SIGSTOP))

/* Linux's struct sigaction as the system call takes it (not the C library's). */
#define SIG_DFL 0
#define SIG_IGN 1
enum { SA_NOCLDSTOP = 1, SA_NOCLDWAIT = 2, SA_SIGINFO = 4, SA_RESTORER = 0x04000000,
       SA_ONSTACK = 0x08000000, SA_RESTART = 0x10000000, SA_NODEFER = 0x40000000,
       SA_RESETHAND = (int)0x80000000 };
struct k_sigaction {
	uint64_t handler;                 /* SIG_DFL, SIG_IGN, or the handler's address */
	uint64_t flags;
	uint64_t restorer;                /* where the handler returns: the C library's rt_sigreturn call */
	sigset_t mask;                    /* blocked too while the handler runs */
};

/* sigaltstack()'s stack_t, and its flags: SS_ONSTACK (given: taken as 0,
 * for old programs; told: the thread is on it), SS_DISABLE (none), and
 * SS_AUTODISARM with either: each handler entered takes it off, and its
 * return puts it back. */
struct user_stack {
	uint64_t sp;
	uint32_t flags, pad;
	uint64_t size;
};
#define SS_ONSTACK    1u
#define SS_DISABLE    2u
#define SS_AUTODISARM 0x80000000u
#define MINSIGSTKSZ   2048

/* si_code of a signal the kernel sends of itself (the terminal's). */
#define SI_KERNEL 0x80
/* SIGCHLD's si_code: what became of the child. */
enum { CLD_EXITED = 1, CLD_KILLED = 2, CLD_STOPPED = 5, CLD_CONTINUED = 6 };

/* What a signal says of itself (the part of siginfo_t the kernel fills). */
struct sig_info {
	int signo, code;
	int pid, uid;                     /* the sender's, for kill() and SIGCHLD */
	int status;                       /* SIGCHLD: the child's exit code or signal */
	bool fault;                       /* sent by a fault of the receiver's own (SIGSEGV, ...): */
	uint64_t addr;                    /* ... at this address */
};

struct process;
struct thread;
struct user_regs;

/* Signals sent and not yet taken: one of each kind waits. */
struct sigqueue {
	sigset_t pending;
	struct sig_info info[NSIG];       /* of each pending signal: the first sent says who */
};

/* A process's signal state; under its lock unless said otherwise. */
struct signals {
	struct spinlock lock;             /* taken after the process tree's; also guards the
	                                     process's list of threads */
	struct k_sigaction action[NSIG];
	struct sigqueue shared;           /* sent to the process: any thread may take them */
	/* Job control: stopped by SIGSTOP (or SIGTSTP, SIGTTIN, SIGTTOU by
	 * default), until SIGCONT or SIGKILL. */
	bool stopped;                     /* atomic: read without the lock */
	int wait_report;                  /* a stop or continue its parent's wait has not told: its
	                                     wait status, or 0 */
	struct wait_queue resume;         /* its threads sleep here while it is stopped */
	struct timer alarm;               /* ITIMER_REAL: sends SIGALRM */
	bool alarm_armed;                 /* it is queued, or has fired and its function is to come */
	uint64_t alarm_interval_ns;       /* then again every this often, once SIGALRM is taken; 0: once */
};

void signals_init(struct signals *s);                   /* all default, nothing pending */
void signals_fork(struct signals *child, const struct signals *parent);   /* the actions */
/* A new thread's own part: the creator's mask, and its alternate stack
 * too if a fork makes the thread (Linux's rules). */
void signals_thread_init(struct thread *t, const struct thread *creator, bool fork);
/* exec: handlers back to default (ignored ones stay), no alternate stack. */
void signals_exec(struct signals *s, struct thread *t);
void signals_exit(struct signals *s);                   /* the alarm cancelled */

/* Send sig to proc, as kill() would (info->signo is sig): a pending bit,
 * and a thread that does not block it woken from an interruptible sleep,
 * or interrupted in ring 3 on another CPU. Ignored signals are dropped
 * here. The caller keeps proc alive: it holds the process tree's lock
 * (kernel/task/process.c), or is one of proc's threads or its alarm. */
void signal_send(struct process *proc, const struct sig_info *info);
/* The same, to thread t of proc alone (tkill, a fault): under proc's
 * signal lock, which keeps t in the process. */
void signal_send_thread_locked(struct process *proc, struct thread *t, const struct sig_info *info);
/* Is thread t (of the caller's process, or the caller) on its alternate
 * signal stack at sp? Never with SS_AUTODISARM (Linux's rule: a handler
 * on it has taken it off). */
bool signal_on_altstack(const struct thread *t, uint64_t sp);
/* sigaltstack() for the calling thread t, whose stack pointer is sp: the
 * stack as it is told (flags SS_ONSTACK or SS_DISABLE, and SS_AUTODISARM
 * if set); and setting it, Linux's checks in its order: 0, -EPERM (t is
 * on it), -EINVAL (flags), -ENOMEM (smaller than MINSIGSTKSZ). */
struct user_stack signal_altstack(const struct thread *t, uint64_t sp);
long signal_set_altstack(struct thread *t, const struct user_stack *ss, uint64_t sp);
/* The signals pending for the calling thread: its own and its process's. */
sigset_t signal_pending_set(void);
/* Is the default action of sig to end the process? To stop it? */
bool signal_kills_by_default(int sig);
bool signal_stops_by_default(int sig);
/* A thread of proc takes a stop signal sig: every thread is to stop. True
 * if proc was running (the caller tells its parent). */
bool signal_stop(struct process *proc, int sig);
/* SIGCONT is sent to proc: the stop signals pending go, and if proc is
 * stopped its threads run again. True if it was stopped. */
bool signal_continue(struct process *proc);
/* Would sig do anything if sent to proc now (not ignored)? */
bool signal_wanted(struct process *proc, int sig);

/* From exit_to_user(): act on the pending unblocked signals (end the
 * process, or enter a handler by rewriting regs). Interrupts off. */
void signal_deliver(struct user_regs *regs);
/* A system call returned -ERESTARTSYS: make it run again on the way out,
 * unless a handler without SA_RESTART runs first (then it fails with -EINTR). */
void signal_restart_syscall(struct user_regs *regs, uint64_t nr);

/* The system calls (kernel/task/signal/sys_signal.c uses them). */
long signal_action(int sig, const struct k_sigaction *act, struct k_sigaction *old);
void signal_set_blocked(sigset_t blocked);
long signal_return(struct user_regs *regs);
long signal_suspend(sigset_t mask);
long signal_alarm(uint64_t value_ns, uint64_t interval_ns, uint64_t *old_value_ns, uint64_t *old_interval_ns);
void signal_alarm_get(uint64_t *value_ns, uint64_t *interval_ns);
