/*
 * System calls, with Linux's numbers, arguments and error values, so that a
 * program built for Linux runs unchanged. The entry code
 * (arch/x86_64/syscall.asm) calls syscall_dispatch() with interrupts on,
 * on the task's kernel stack. Every user pointer is only ever passed to
 * copy_from_user() or copy_to_user(): a bad one is -EFAULT, never a fault.
 *
 * To add a call: write sys_NAME(arg) in the sys_*.c file of its subsystem,
 * declare it in kernel/syscalls.h and put it in `table` at its Linux number
 * (kernel/entry/syscall_names.c has them all).
 */
#include <stdbool.h>
#include "kernel/entry/syscall.h"
#include "kernel/syscalls.h"
#include "kernel/task/process.h"
#include "kernel/task/signal/signal.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "sched/preempt.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/user.h"
#include "lib/util.h"

/* arg[0..5]: the six argument registers. */
typedef long (*syscall_fn)(const uint64_t *arg);

static const syscall_fn table[] = {
	[0] = sys_read,
	[1] = sys_write,
	[2] = sys_open,
	[3] = sys_close,
	[4] = sys_stat,
	[5] = sys_fstat,
	[6] = sys_lstat,
	[7] = sys_poll,
	[23] = sys_select,
	[8] = sys_lseek,
	[9] = sys_mmap,
	[10] = sys_mprotect,
	[11] = sys_munmap,
	[12] = sys_brk,
	[13] = sys_rt_sigaction,
	[14] = sys_rt_sigprocmask,
	[15] = sys_rt_sigreturn,
	[16] = sys_ioctl,
	[17] = sys_pread64,
	[18] = sys_pwrite64,
	[19] = sys_readv,
	[20] = sys_writev,
	[21] = sys_access,
	[22] = sys_pipe,
	[24] = sys_sched_yield,
	[25] = sys_mremap,
	[28] = sys_madvise,
	[32] = sys_dup,
	[33] = sys_dup2,
	[34] = sys_pause,
	[35] = sys_nanosleep,
	[36] = sys_getitimer,
	[37] = sys_alarm,
	[38] = sys_setitimer,
	[39] = sys_getpid,
	[56] = sys_clone,
	[57] = sys_fork,
	[58] = sys_fork,                  /* vfork: the parent need not wait, with copy-on-write */
	[59] = sys_execve,
	[60] = sys_exit,
	[61] = sys_wait4,
	[62] = sys_kill,
	[63] = sys_uname,
	[72] = sys_fcntl,
	[74] = sys_fsync,
	[75] = sys_fsync,                 /* fdatasync: nothing to wait for either */
	[76] = sys_truncate,
	[77] = sys_ftruncate,
	[79] = sys_getcwd,
	[80] = sys_chdir,
	[81] = sys_fchdir,
	[82] = sys_rename,
	[83] = sys_mkdir,
	[84] = sys_rmdir,
	[87] = sys_unlink,
	[95] = sys_umask,
	[96] = sys_gettimeofday,
	[97] = sys_getrlimit,
	[98] = sys_getrusage,
	[99] = sys_sysinfo,
	[100] = sys_times,
	[102] = sys_get_id,               /* getuid: everything runs as root */
	[104] = sys_get_id,               /* getgid */
	[107] = sys_get_id,               /* geteuid */
	[108] = sys_get_id,               /* getegid */
	[109] = sys_setpgid,
	[110] = sys_getppid,
	[111] = sys_getpgrp,
	[112] = sys_setsid,
	[121] = sys_getpgid,
	[124] = sys_getsid,
	[127] = sys_rt_sigpending,
	[130] = sys_rt_sigsuspend,
	[131] = sys_sigaltstack,
	[140] = sys_getpriority,
	[141] = sys_setpriority,
	[142] = sys_sched_setparam,
	[143] = sys_sched_getparam,
	[144] = sys_sched_setscheduler,
	[145] = sys_sched_getscheduler,
	[146] = sys_sched_get_priority_max,
	[147] = sys_sched_get_priority_min,
	[148] = sys_sched_rr_get_interval,
	[157] = sys_prctl,
	[158] = sys_arch_prctl,
	[160] = sys_setrlimit,
	[169] = sys_reboot,
	[186] = sys_gettid,
	[200] = sys_tkill,
	[201] = sys_time,
	[202] = sys_futex,
	[203] = sys_sched_setaffinity,
	[204] = sys_sched_getaffinity,
	[217] = sys_getdents64,
	[218] = sys_set_tid_address,
	[228] = sys_clock_gettime,
	[229] = sys_clock_getres,
	[230] = sys_clock_nanosleep,
	[231] = sys_exit_group,
	[234] = sys_tgkill,
	[247] = sys_waitid,
	[257] = sys_openat,
	[258] = sys_mkdirat,
	[262] = sys_newfstatat,
	[263] = sys_unlinkat,
	[264] = sys_renameat,
	[269] = sys_faccessat,
	[270] = sys_pselect6,
	[271] = sys_ppoll,
	[273] = sys_set_robust_list,
	[292] = sys_dup3,
	[293] = sys_pipe2,
	[302] = sys_prlimit64,
	[309] = sys_getcpu,
	[314] = sys_sched_setattr,
	[315] = sys_sched_getattr,
	[316] = sys_renameat2,
	[318] = sys_getrandom,
	[324] = sys_membarrier,
	[439] = sys_faccessat2,
};

/* -ENOSYS, said once per program and number in the log, so a missing call
 * is easy to find when a program misbehaves. */
static long not_implemented(uint64_t nr)
{
	struct task *me = current();
	uint64_t *reported = me->process->reported_missing;
	size_t bit = MIN(nr, (uint64_t)SYSCALL_NR_TRACKED);
	if (!(reported[bit / 64] & (1ULL << (bit % 64)))) {
		reported[bit / 64] |= 1ULL << (bit % 64);
		pr_info("pid %d (%s): system call %llu (%s) is not implemented", me->pid, me->name,
			(unsigned long long)nr, syscall_name((long)nr));
	}
	return -ENOSYS;
}

/* Every call must give back the preemption it took (a spinlock's): one
 * that did not would leave its task on the CPU for good, however long it
 * ran. Name it, loudly, and put it right. */
static void check_preemption_back(uint64_t nr)
{
	struct task *me = current();
	if (me->preempt_count == 0)
		return;
	pr_warn("pid %d (%s): system call %llu (%s) returns with preempt_count %d", me->pid, me->name,
		(unsigned long long)nr, syscall_name((long)nr), me->preempt_count);
	me->preempt_count = 0;
}

bool syscall_dispatch(struct user_regs *regs)
{
	/* Linux's argument order; r10 stands in for rcx, which `syscall` overwrites. */
	const uint64_t arg[6] = { regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8, regs->r9 };
	uint64_t nr = regs->rax;
	long ret = nr < ARRAY_SIZE(table) && table[nr] ? table[nr](arg) : not_implemented(nr);
	regs->rax = (uint64_t)ret;
	check_preemption_back(nr);
	if (ret == -ERESTARTSYS)
		signal_restart_syscall(regs, nr);   /* a signal interrupted it (kernel/task/signal/signal.c) */
	preempt_check_resched();          /* a wake-up meanwhile may want this CPU */
	irq_disable();                    /* from here to ring 3 nothing may come between */
	exit_to_user(regs);
	return user_return_uses_sysret(regs);   /* a signal's handler or return may have changed regs */
}
