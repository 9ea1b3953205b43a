/*
 * System calls, with Linux's numbers, arguments and error values, so that a
 * program built for Linux runs unchanged. The entry code
 * (arch/x86_64/syscall.asm) calls syscall_dispatch() with interrupts on,
 * on the task's kernel stack. Every user pointer is only ever passed to
 * copy_from_user() or copy_to_user(): a bad one is -EFAULT, never a fault.
 *
 * To add a call: write sys_NAME(arg) and put it in `table` at its Linux
 * number (kernel/syscall_names.c has them all).
 */
#include <stdbool.h>
#include "kernel/syscall.h"
#include "kernel/process.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "sched/preempt.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/user.h"
#include "lib/util.h"

/* arg[0..5]: the six argument registers. */
typedef long (*syscall_fn)(const uint64_t *arg);

/* Descriptors 0, 1 and 2 are the console, as on a Linux text console. */
static bool is_console(uint64_t fd)
{
	return fd <= 2;
}

/* A write's bytes, gathered so that they reach the console in as few
 * pieces as possible: each piece goes out whole, and another program's
 * output can only come between pieces. musl's printf is one writev of a
 * few short buffers: one piece. */
struct console_output {
	char buf[512];
	size_t used;
	long written;
};

static void output_flush(struct console_output *out)
{
	console_write(out->buf, out->used);
	out->written += (long)out->used;
	out->used = 0;
}

/* Add len bytes from user memory at ubuf: 0, or -EFAULT. */
static int output_add(struct console_output *out, uint64_t ubuf, uint64_t len)
{
	while (len > 0) {
		if (out->used == sizeof(out->buf))
			output_flush(out);
		size_t n = MIN(len, sizeof(out->buf) - out->used);
		if (copy_from_user(out->buf + out->used, (const void *)ubuf, n) < 0)
			return -EFAULT;
		out->used += n;
		ubuf += n;
		len -= n;
	}
	return 0;
}

/* What a write returns: the bytes written, or the error if there were none. */
static long output_done(struct console_output *out, int err)
{
	output_flush(out);
	return out->written > 0 || !err ? out->written : err;
}

static long sys_write(const uint64_t *arg)
{
	if (!is_console(arg[0]))
		return -EBADF;
	struct console_output out = { .used = 0 };
	return output_done(&out, output_add(&out, arg[1], arg[2]));
}

struct user_iovec {
	uint64_t base, len;
};
#define IOV_MAX 1024

static long sys_writev(const uint64_t *arg)
{
	if (!is_console(arg[0]))
		return -EBADF;
	if (arg[2] > IOV_MAX)
		return -EINVAL;
	struct console_output out = { .used = 0 };
	int err = 0;
	for (uint64_t i = 0; i < arg[2] && !err; i++) {
		struct user_iovec v;
		err = copy_from_user(&v, (const void *)(arg[1] + i * sizeof(v)), sizeof(v));
		if (!err)
			err = output_add(&out, v.base, v.len);
	}
	return output_done(&out, err);
}

#define TIOCGWINSZ 0x5413

struct winsize {
	uint16_t rows, cols, xpixels, ypixels;
};

/* The C library asks whether stdout is a terminal this way (and then
 * buffers it by lines). */
static long sys_ioctl(const uint64_t *arg)
{
	static const struct winsize console_size = { .rows = 24, .cols = 80 };
	if (!is_console(arg[0]))
		return -EBADF;
	if (arg[1] != TIOCGWINSZ)
		return -ENOTTY;
	return copy_to_user((void *)arg[2], &console_size, sizeof(console_size));
}

/* One thread per process for now: exit and exit_group are the same. With
 * threads, exit will also clear *clear_child_tid and wake a futex there. */
static long sys_exit(const uint64_t *arg)
{
	process_exit(wait_status_exited((int)arg[0]));
}

enum { ARCH_SET_FS = 0x1002, ARCH_GET_FS = 0x1003 };

/* The C library's thread pointer: FS-relative addresses are its thread-local data. */
static long sys_arch_prctl(const uint64_t *arg)
{
	struct task *me = sched_current();
	switch (arg[0]) {
	case ARCH_SET_FS:
		if (arg[1] >= USER_TOP)
			return -EPERM;            /* as Linux: no kernel or non-canonical base */
		me->fs_base = arg[1];             /* first: a switch in between loads the new one */
		arch_set_fs_base(arg[1]);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void *)arg[1], &me->fs_base, sizeof(me->fs_base));
	default:
		return -EINVAL;
	}
}

static long sys_set_tid_address(const uint64_t *arg)
{
	struct task *me = sched_current();
	me->clear_child_tid = arg[0];
	return me->pid;
}

/* One thread per process: the process's id is its task's, and gettid() the same. */
static long sys_getpid(const uint64_t *arg)
{
	(void)arg;
	return sched_current()->pid;
}

static long sys_brk(const uint64_t *arg)
{
	return (long)mm_brk(sched_current()->process->mm, arg[0]);
}

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

/* The release is a Linux version: C libraries compare it with the oldest
 * kernel they support, and it is Linux's interface that leftmost offers. */
static long sys_uname(const uint64_t *arg)
{
	static const struct utsname uts = {
		.sysname = "leftmost", .nodename = "leftmost", .release = "6.1.0-leftmost",
		.version = "#1", .machine = "x86_64", .domainname = "(none)",
	};
	return copy_to_user((void *)arg[0], &uts, sizeof(uts));
}

/* No signals yet: every mask is accepted, and the old one was empty. */
static long sys_rt_sigprocmask(const uint64_t *arg)
{
	enum { SIG_SETMASK = 2 };
	uint64_t set, old = 0;
	if (arg[3] != sizeof(set) || (arg[1] && arg[0] > SIG_SETMASK))
		return -EINVAL;
	if (arg[1] && copy_from_user(&set, (const void *)arg[1], sizeof(set)) < 0)
		return -EFAULT;
	if (arg[2] && copy_to_user((void *)arg[2], &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

static const syscall_fn table[] = {
	[1] = sys_write,
	[12] = sys_brk,
	[14] = sys_rt_sigprocmask,
	[16] = sys_ioctl,
	[20] = sys_writev,
	[39] = sys_getpid,
	[60] = sys_exit,
	[63] = sys_uname,
	[158] = sys_arch_prctl,
	[186] = sys_getpid,               /* gettid */
	[218] = sys_set_tid_address,
	[231] = sys_exit,                 /* exit_group */
};

/* -ENOSYS, said once per program and number in the log, so a missing call
 * is easy to find when a program misbehaves. */
static long not_implemented(uint64_t nr)
{
	struct task *me = sched_current();
	uint64_t *reported = me->process->reported_missing;
	size_t bit = MIN(nr, (uint64_t)SYSCALL_NR_TRACKED);
	if (!(reported[bit / 64] & (1ULL << (bit % 64)))) {
		reported[bit / 64] |= 1ULL << (bit % 64);
		pr_info("pid %d (%s): system call %llu (%s) is not implemented", me->pid, me->name,
			(unsigned long long)nr, syscall_name((long)nr));
	}
	return -ENOSYS;
}

long syscall_dispatch(struct user_regs *regs)
{
	/* Linux's argument order; r10 stands in for rcx, which `syscall` overwrites. */
	const uint64_t arg[6] = { regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8, regs->r9 };
	uint64_t nr = regs->rax;
	long ret = nr < ARRAY_SIZE(table) && table[nr] ? table[nr](arg) : not_implemented(nr);
	preempt_check_resched();          /* a wake-up meanwhile may want this CPU */
	return ret;
}
