/*
 * Waiting on many files at once (poll, ppoll). A task can sleep on one
 * wait queue only, so a file that can be polled keeps a list of hooks
 * instead: a poller hangs one hook on each file it asks about, and the
 * file, whenever its state changes, fires every hook on its list, which
 * wakes that hook's poller. The poller then asks each file again.
 *
 * No change can be missed: the poller hangs its hooks *before* it asks
 * the files their state, and a hook fired after it asked marks the poll
 * as woken, so it does not sleep (as sched/wait.h's rule).
 */
#pragma once
#include <stdbool.h>
#include "kernel/spinlock.h"
#include "sched/wait.h"
#include "lib/list.h"

/* poll()'s event bits, Linux's values. */
enum {
	POLLIN = 0x001, POLLPRI = 0x002, POLLOUT = 0x004, POLLERR = 0x008,
	POLLHUP = 0x010, POLLNVAL = 0x020, POLLRDNORM = 0x040, POLLWRNORM = 0x100,
};

/* The hooks hung on one pollable thing (a pipe, the terminal). */
struct poll_list {
	struct spinlock lock;
	struct list_node hooks;           /* struct poll_hook, by node */
};
void poll_list_init(struct poll_list *l, const char *name);
/* l's owner changed state: wake each poller whose hook is on it. */
void poll_wake(struct poll_list *l);

struct poll_table;
/* From a file's poll method, once per call: hang the caller's hook on l,
 * unless it is only asking (pt NULL) or already has (two descriptors of
 * one pipe). A poll has one hook per descriptor. */
void poll_wait(struct poll_table *pt, struct poll_list *l);

/* The system calls' work: fds in kernel memory; deadline in clock_ns()
 * time, 0 for none (return at once), FOREVER_NS to wait as long as it
 * takes. How many fds have events, or -EINTR, -ENOMEM. */
struct pollfd {
	int fd;
	short events, revents;
};
long poll_files(struct pollfd *fds, unsigned nfds, uint64_t deadline);
