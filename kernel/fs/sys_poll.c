/*
 * poll, ppoll, select and pselect6: the caller's array (or bit sets) in
 * and out, the timeout turned into a deadline, and the signal mask of
 * ppoll and pselect6; kernel/fs/poll.c does the waiting. None is restarted
 * after a signal's handler, even with SA_RESTART (Linux's rule too): they
 * fail with EINTR.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/poll.h"
#include "kernel/task/process.h"
#include "kernel/task/thread.h"
#include "kernel/task/signal/signal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/fdtable.h"
#include "kernel/errno.h"
#include "sched/platform.h"
#include "sched/task.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/time.h"
#include "lib/time_units.h"
#include "lib/string.h"
#include "lib/util.h"

/* The array in, the wait, the revents out. */
static long poll_user(uint64_t ufds, uint64_t nfds, uint64_t deadline)
{
	struct process *proc = current()->process;
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

/* The signal mask of ppoll and pselect6 (umask NULL: as it is): it holds
 * while the call waits, and until the handler of a signal that ends the
 * wait returns (as rt_sigsuspend). 0, -EINVAL or -EFAULT. */
static int wait_with_mask(uint64_t umask, uint64_t size)
{
	if (!umask)
		return 0;
	sigset_t mask;
	if (size != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, (const void *)umask, sizeof(mask)) < 0)
		return -EFAULT;
	struct thread *t = current()->thread;
	t->saved_blocked = t->blocked;
	t->restore_blocked = true;
	signal_set_blocked(mask);
	return 0;
}

/* The call is over with ret: unless a handler is to run first (EINTR),
 * the mask it waited with goes now. */
static void end_wait_with_mask(uint64_t umask, long ret)
{
	struct thread *t = current()->thread;
	if (umask && ret != -EINTR) {
		t->restore_blocked = false;
		signal_set_blocked(t->saved_blocked);
	}
}

/* A timeout of ns (FOREVER_NS: none) from now. */
static uint64_t deadline_in(uint64_t ns)
{
	return ns == 0 ? 0 : ns == FOREVER_NS ? FOREVER_NS : clock_ns() + ns;
}

static uint64_t time_left(uint64_t deadline)
{
	uint64_t now = clock_ns();
	return deadline > now ? deadline - now : 0;
}

/* ppoll(fds, nfds, timeout (NULL: for ever), sigmask, sigsetsize). The
 * time left is written back, as Linux does. */
long sys_ppoll(const uint64_t *arg)
{
	uint64_t timeout = FOREVER_NS;
	int err = arg[2] ? get_timespec(arg[2], &timeout) : 0;
	if (!err)
		err = wait_with_mask(arg[3], arg[4]);
	if (err)
		return err;
	uint64_t deadline = deadline_in(timeout);
	long ret = poll_user(arg[0], arg[1], deadline);
	end_wait_with_mask(arg[3], ret);
	if (arg[2] && deadline != 0 && deadline != FOREVER_NS)
		put_timespec(arg[2], time_left(deadline));   /* a failure changes nothing (Linux) */
	return ret;
}

/* select()'s three sets, as poll()'s events (Linux's POLLIN_SET, ...). */
#define SELECT_READ   (POLLIN | POLLRDNORM | POLLHUP | POLLERR)
#define SELECT_WRITE  (POLLOUT | POLLWRNORM | POLLERR)
#define SELECT_EXCEPT POLLPRI
static const short select_events[3] = { SELECT_READ, SELECT_WRITE, SELECT_EXCEPT };

#define SET_WORDS(nfds) (((nfds) + 63) / 64)

/* select's work: the sets at usets[3] (0: none) of nfds bits in and out;
 * how many bits are set on return, -EBADF for a closed descriptor in a set. */
static long select_user(int nfds, const uint64_t usets[3], uint64_t deadline)
{
	uint64_t sets[3][SET_WORDS(FDTABLE_SIZE)] = { { 0 } };
	size_t bytes = SET_WORDS(nfds) * sizeof(uint64_t);
	for (int s = 0; s < 3; s++)
		if (usets[s] && copy_from_user(sets[s], (const void *)usets[s], bytes) < 0)
			return -EFAULT;
	struct pollfd *fds = kmalloc(sizeof(*fds) * (nfds ? (size_t)nfds : 1));
	if (!fds)
		return -ENOMEM;
	unsigned n = 0;
	for (int fd = 0; fd < nfds; fd++) {
		short events = 0;
		for (int s = 0; s < 3; s++)
			if (sets[s][fd / 64] & (1ULL << (fd % 64)))
				events |= select_events[s];
		if (events)
			fds[n++] = (struct pollfd){ .fd = fd, .events = events };
	}
	long ret = poll_files(fds, n, deadline);
	for (unsigned i = 0; i < n && ret >= 0; i++)
		if (fds[i].revents & POLLNVAL)
			ret = -EBADF;
	if (ret >= 0) {
		memset(sets, 0, sizeof(sets));
		ret = 0;
		for (unsigned i = 0; i < n; i++)
			for (int s = 0; s < 3; s++)
				if (fds[i].revents & fds[i].events & select_events[s]) {
					sets[s][fds[i].fd / 64] |= 1ULL << (fds[i].fd % 64);
					ret++;
				}
		for (int s = 0; s < 3; s++)
			if (usets[s] && copy_to_user((void *)usets[s], sets[s], bytes) < 0)
				ret = -EFAULT;
	}
	kfree(fds);
	return ret;
}

/* nfds: Linux's rule, negative is EINVAL and more than a process may have
 * open is as many. */
static int select_nfds(uint64_t arg)
{
	int nfds = (int)arg;
	return nfds < 0 ? -EINVAL : MIN(nfds, FDTABLE_SIZE);
}

struct user_timeval {
	int64_t sec, usec;
};

/* select(nfds, readfds, writefds, exceptfds, timeout (a timeval; NULL: for
 * ever)): the time left is written back, as Linux does. */
long sys_select(const uint64_t *arg)
{
	int nfds = select_nfds(arg[0]);
	if (nfds < 0)
		return nfds;
	uint64_t deadline = FOREVER_NS;
	if (arg[4]) {
		struct user_timeval tv;
		if (copy_from_user(&tv, (const void *)arg[4], sizeof(tv)) < 0)
			return -EFAULT;
		/* Linux carries whole seconds of usec over, then wants both non-negative. */
		int64_t sec = tv.sec + tv.usec / 1000000, usec = tv.usec % 1000000;
		if (sec < 0 || usec < 0)
			return -EINVAL;
		deadline = deadline_in((uint64_t)sec >= FOREVER_NS / NS_PER_S ? FOREVER_NS
						: (uint64_t)sec * NS_PER_S + (uint64_t)usec * NS_PER_US);
	}
	const uint64_t usets[3] = { arg[1], arg[2], arg[3] };
	long ret = select_user(nfds, usets, deadline);
	if (arg[4] && deadline != 0 && deadline != FOREVER_NS) {
		uint64_t left = time_left(deadline);
		struct user_timeval tv = { (int64_t)(left / NS_PER_S), (int64_t)(left % NS_PER_S / NS_PER_US) };
		copy_to_user((void *)arg[4], &tv, sizeof(tv));
	}
	return ret;
}

/* pselect6(nfds, readfds, writefds, exceptfds, timeout (a timespec),
 * {sigmask, sigsetsize}): select with ppoll's mask. */
long sys_pselect6(const uint64_t *arg)
{
	int nfds = select_nfds(arg[0]);
	if (nfds < 0)
		return nfds;
	uint64_t timeout = FOREVER_NS, mask[2] = { 0, 0 };
	int err = arg[4] ? get_timespec(arg[4], &timeout) : 0;
	if (!err && arg[5] && copy_from_user(mask, (const void *)arg[5], sizeof(mask)) < 0)
		err = -EFAULT;
	if (!err)
		err = wait_with_mask(mask[0], mask[1]);
	if (err)
		return err;
	uint64_t deadline = deadline_in(timeout);
	const uint64_t usets[3] = { arg[1], arg[2], arg[3] };
	long ret = select_user(nfds, usets, deadline);
	end_wait_with_mask(mask[0], ret);
	if (arg[4] && deadline != 0 && deadline != FOREVER_NS)
		put_timespec(arg[4], time_left(deadline));
	return ret;
}
