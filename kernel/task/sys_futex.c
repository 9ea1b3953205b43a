/*
 * futex(): the operation and its flags, the timeout, Linux's checks;
 * kernel/task/futex.c does the work. The operations musl's threads, locks and
 * condition variables use: WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAIT_BITSET
 * and WAKE_BITSET, private or shared. The priority-inheritance and robust
 * operations are -ENOSYS.
 */
#include "kernel/syscalls.h"
#include "kernel/task/futex.h"
#include "kernel/time/realtime.h"
#include "kernel/errno.h"
#include "arch/x86_64/time.h"

enum {
	FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_REQUEUE = 3, FUTEX_CMP_REQUEUE = 4,
	FUTEX_WAIT_BITSET = 9, FUTEX_WAKE_BITSET = 10,
	FUTEX_PRIVATE_FLAG = 128, FUTEX_CLOCK_REALTIME = 256,
};

/* A wait's end on the monotonic clock (0: none). FUTEX_WAIT's timeout is
 * relative; FUTEX_WAIT_BITSET's is absolute, on CLOCK_REALTIME if asked. */
static int deadline_of(uint64_t utime, bool absolute, bool realtime, uint64_t *deadline)
{
	uint64_t ns;
	*deadline = 0;
	if (!utime)
		return 0;
	int err = get_timespec(utime, &ns);
	if (err)
		return err;
	uint64_t now = clock_ns();
	if (!absolute)
		*deadline = now + ns;
	else if (realtime)
		*deadline = ns > realtime_ns() ? now + (ns - realtime_ns()) : now;
	else
		*deadline = ns;
	if (*deadline == 0)
		*deadline = 1;                    /* absolute 0: already past, but still a deadline */
	return 0;
}

long sys_futex(const uint64_t *arg)
{
	uint64_t uaddr = arg[0], utime = arg[3], uaddr2 = arg[4];
	int op = (int)arg[1], cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	uint32_t val = (uint32_t)arg[2], val3 = (uint32_t)arg[5];
	bool shared = !(op & FUTEX_PRIVATE_FLAG), realtime = op & FUTEX_CLOCK_REALTIME;
	if (realtime && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	uint64_t deadline;
	int err;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		err = deadline_of(utime, cmd == FUTEX_WAIT_BITSET, realtime, &deadline);
		return err ? err : futex_wait(uaddr, shared, val, val3, deadline);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		/* The fourth argument is no timeout here but how many to move. */
		return futex_requeue(uaddr, shared, (int)val, (int)utime, uaddr2, cmd == FUTEX_CMP_REQUEUE, val3);
	default:
		return -ENOSYS;
	}
}
