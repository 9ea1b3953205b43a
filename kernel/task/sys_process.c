/*
 * The process system calls: fork, clone, execve, wait4, exit, kill and the
 * ids. A process's id is its first thread's; gettid() is the calling
 * thread's own (docs/userspace.md).
 */
#include "kernel/syscalls.h"
#include "kernel/task/process.h"
#include "kernel/errno.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"
#include "lib/string.h"
#include "lib/time_units.h"

static struct user_regs *my_regs(void)
{
	return arch_user_regs(current()->kstack_top);
}

long sys_fork(const uint64_t *arg)
{
	(void)arg;
	return process_fork(my_regs());
}

/* x86-64's argument order: flags, stack, parent_tid, child_tid, tls. */
long sys_clone(const uint64_t *arg)
{
	const struct clone_args args = { .flags = arg[0], .stack = arg[1], .parent_tid = arg[2],
					 .child_tid = arg[3], .tls = arg[4] };
	return process_clone(my_regs(), &args);
}

long sys_execve(const uint64_t *arg)
{
	return process_execve(arg[0], arg[1], arg[2]);
}

struct user_timeval {
	int64_t sec, usec;
};

/* Linux's struct rusage: two times, then fourteen counters. */
struct user_rusage {
	struct user_timeval utime, stime;
	int64_t counters[14];
};

long sys_wait4(const uint64_t *arg)
{
	int pid = (int)arg[0], options = (int)arg[2];
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | WALL | WCLONE))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;                    /* -pid would overflow: Linux's answer */
	int status;
	struct cputime time;
	int ret = process_wait_child(pid, options, &status, &time);
	if (ret <= 0)
		return ret;
	/* An ended child is gone: a bad pointer now loses its status, as on Linux. */
	if (arg[1] && copy_to_user((void *)arg[1], &status, sizeof(status)) < 0)
		return -EFAULT;
	if (arg[3]) {
		struct user_rusage ru = {
			.utime = { (int64_t)(time.user_ns / NS_PER_S), (int64_t)(time.user_ns % NS_PER_S / NS_PER_US) },
			.stime = { (int64_t)(time.system_ns / NS_PER_S), (int64_t)(time.system_ns % NS_PER_S / NS_PER_US) },
		};
		if (copy_to_user((void *)arg[3], &ru, sizeof(ru)) < 0)
			return -EFAULT;
	}
	return ret;
}

long sys_waitid(const uint64_t *arg)
{
	int options = (int)arg[3], pid, status;
	if (options & ~(WNOHANG | WUNTRACED | WEXITED | WCONTINUED | WNOWAIT | WALL | WCLONE) ||
	    !(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	int ret = process_waitid((int)arg[0], (int)arg[1], options, &pid, &status);
	if (ret < 0 || !arg[2])
		return ret;
	/* siginfo_t as waitid fills it: all zero when no child had ended (WNOHANG). */
	struct { int32_t signo, errno_, code, pad, pid, uid, status, rest[25]; } info = { .signo = 0 };
	if (pid) {
		int killed_by = wait_status_signal(status);
		info.signo = SIGCHLD;
		info.pid = pid;
		if (wait_status_is_continue(status)) {
			info.code = CLD_CONTINUED;
			info.status = SIGCONT;
		} else if (wait_status_is_stop(status)) {
			info.code = CLD_STOPPED;
			info.status = wait_status_code(status);
		} else {
			info.code = killed_by ? CLD_KILLED : CLD_EXITED;
			info.status = killed_by ? killed_by : wait_status_code(status);
		}
	}
	return copy_to_user((void *)arg[2], &info, sizeof(info));
}

long sys_setpgid(const uint64_t *arg)
{
	return process_setpgid((int)arg[0], (int)arg[1]);
}

long sys_getpgid(const uint64_t *arg)
{
	return process_getpgid((int)arg[0]);
}

long sys_getpgrp(const uint64_t *arg)
{
	(void)arg;
	return process_getpgid(0);
}

long sys_setsid(const uint64_t *arg)
{
	(void)arg;
	return process_setsid();
}

long sys_getsid(const uint64_t *arg)
{
	return process_getsid((int)arg[0]);
}

/* The C library's list of robust mutexes, for the kernel to release when a
 * thread dies holding one: kept, and used once threads exist. */
long sys_set_robust_list(const uint64_t *arg)
{
	enum { ROBUST_LIST_HEAD_SIZE = 24 };
	if (arg[1] != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	current()->process->robust_list = arg[0];
	return 0;
}

/* exit() ends the calling thread; exit_group(), which the C library's
 * exit() calls, ends them all. */
long sys_exit(const uint64_t *arg)
{
	thread_exit(wait_status_exited((int)arg[0]));
}

long sys_exit_group(const uint64_t *arg)
{
	process_exit(wait_status_exited((int)arg[0]));
}

long sys_gettid(const uint64_t *arg)
{
	(void)arg;
	return current()->pid;
}

long sys_kill(const uint64_t *arg)
{
	return process_kill((int)arg[0], (int)arg[1]);
}

long sys_getpid(const uint64_t *arg)
{
	(void)arg;
	return current()->process->pid;
}

long sys_getppid(const uint64_t *arg)
{
	(void)arg;
	return process_parent_pid();
}

long sys_set_tid_address(const uint64_t *arg)
{
	struct task *me = current();
	me->clear_child_tid = arg[0];
	return me->pid;
}

enum { PR_SET_PDEATHSIG = 1, PR_GET_PDEATHSIG = 2, PR_SET_NAME = 15, PR_GET_NAME = 16,
       PR_SET_TIMERSLACK = 29, PR_GET_TIMERSLACK = 30 };
#define DEFAULT_TIMER_SLACK_NS 50000      /* Linux's */

/* The signal to get when the parent ends; the thread's name, as the
 * scheduler, the traces and GDB show it (TASK_NAME_LEN bytes with its NUL,
 * as Linux's 16); the timer slack, which is only told back: leftmost's
 * timers have none, every sleep ends when it should. Other options: not yet. */
long sys_prctl(const uint64_t *arg)
{
	struct task *me = current();
	char name[TASK_NAME_LEN];
	switch (arg[0]) {
	case PR_SET_PDEATHSIG:
		return process_set_parent_death_signal((int)arg[1]);
	case PR_GET_PDEATHSIG: {
		int signal = me->process->parent_death_signal;
		return copy_to_user((void *)arg[1], &signal, sizeof(signal));
	}
	case PR_SET_TIMERSLACK:
		me->process->timer_slack_ns = arg[1] ? arg[1] : DEFAULT_TIMER_SLACK_NS;   /* 0: the default */
		return 0;
	case PR_GET_TIMERSLACK:
		return (long)(me->process->timer_slack_ns ? me->process->timer_slack_ns : DEFAULT_TIMER_SLACK_NS);
	case PR_SET_NAME:
		/* Byte by byte: a name may end just before an unmapped page. */
		for (size_t i = 0; i < sizeof(name); i++) {
			if (copy_from_user(&name[i], (const void *)(arg[1] + i), 1) < 0)
				return -EFAULT;
			if (!name[i])
				break;
		}
		name[sizeof(name) - 1] = '\0';
		strlcpy(me->name, name, sizeof(me->name));
		return 0;
	case PR_GET_NAME:
		strlcpy(name, me->name, sizeof(name));
		return copy_to_user((void *)arg[1], name, sizeof(name));
	default:
		return -EINVAL;
	}
}

enum { ARCH_SET_FS = 0x1002, ARCH_GET_FS = 0x1003 };

/* The C library's thread pointer: FS-relative addresses are its thread-local data. */
long sys_arch_prctl(const uint64_t *arg)
{
	struct task *me = current();
	switch (arg[0]) {
	case ARCH_SET_FS:
		if (arg[1] >= USER_TOP)
			return -EPERM;            /* as Linux: no kernel base, and no non-canonical one,
			                             which would fault in the kernel when a switch loads it */
		me->fs_base = arg[1];             /* first: a switch in between loads the new one */
		arch_set_fs_base(arg[1]);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void *)arg[1], &me->fs_base, sizeof(me->fs_base));
	default:
		return -EINVAL;
	}
}
