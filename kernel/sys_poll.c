/*
 * poll and ppoll: the caller's array in and out, the timeout turned into
 * a deadline, and ppoll's signal mask; kernel/poll.c does the waiting.
 * Neither is restarted after a signal's handler, even with SA_RESTART
 * (Linux's rule too): they fail with EINTR.
 */
#include "kernel/syscalls.h"
#include "kernel/poll.h"
#include "kernel/process.h"
#include "kernel/thread.h"
#include "kernel/signal.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "sched/platform.h"
#include "sched/task.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"
#include "lib/util.h"

/* The array in, the wait, the revents out. */
static long poll_user(uint64_t ufds, uint64_t nfds, uint64_t deadline)
{
	struct process *proc = sched_current()->process;
	if (nfds > proc->rlimits[RLIMIT_NOFILE].cur)
		return -EINVAL;
	size_t size = nfds * sizeof(struct pollfd);
	struct pollfd *fds = nfds ? kmalloc(size) : NULL;
	if (nfds && !fds)
		return -ENOMEM;
	long ret = nfds ? copy_from_user(fds, (const void *)ufds, size) : 0;   /* no fds: any address */
	if (!ret)
		ret = poll_files(fds, (unsigned)nfds, deadline);
	if (ret >= 0 && nfds && copy_to_user((void *)ufds, fds, size) < 0)
		ret = -EFAULT;
	kfree(fds);
	return ret;
}

/* poll(fds, nfds, timeout in ms): negative waits for ever, 0 not at all. */
long sys_poll(const uint64_t *arg)
{
	int timeout_ms = (int)arg[2];
	uint64_t deadline = timeout_ms < 0 ? FOREVER_NS : timeout_ms == 0 ? 0 : clock_ns() + (uint64_t)timeout_ms * NS_PER_MS;
	return poll_user(arg[0], arg[1], deadline);
}

/* ppoll(fds, nfds, timeout (NULL: for ever), sigmask (NULL: as it is),
 * sigsetsize): the mask holds while it waits, and until the handler of a
 * signal that ends the wait returns (as rt_sigsuspend). The time left is
 * written back, as Linux does. */
long sys_ppoll(const uint64_t *arg)
{
	uint64_t timeout = FOREVER_NS, deadline = FOREVER_NS;
	if (arg[2]) {
		int err = get_timespec(arg[2], &timeout);
		if (err)
			return err;
		deadline = timeout == 0 ? 0 : timeout == FOREVER_NS ? FOREVER_NS : clock_ns() + timeout;
	}
	struct thread *t = sched_current()->thread;
	if (arg[3]) {
		sigset_t mask;
		if (arg[4] != sizeof(sigset_t))
			return -EINVAL;
		if (copy_from_user(&mask, (const void *)arg[3], sizeof(mask)) < 0)
			return -EFAULT;
		t->saved_blocked = t->blocked;
		t->restore_blocked = true;
		signal_set_blocked(mask);
	}
	long ret = poll_user(arg[0], arg[1], deadline);
	if (arg[3] && ret != -EINTR) {
		t->restore_blocked = false;       /* no handler to run first */
		signal_set_blocked(t->saved_blocked);
	}
	if (arg[2] && deadline != 0 && deadline != FOREVER_NS) {
		uint64_t now = clock_ns();
		put_timespec(arg[2], deadline > now ? deadline - now : 0);   /* a failure changes nothing (Linux) */
	}
	return ret;
}
