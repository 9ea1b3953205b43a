#include "kernel/fs/poll.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fdtable.h"
#include "kernel/task/process.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/timer.h"
#include "kernel/syscalls.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "sched/platform.h"
#include "sched/task.h"
#include "lib/util.h"

/* One file's hook: on its poll_list, naming the poll it belongs to. It
 * holds the file, whose list it hangs on: another thread may close the
 * descriptor meanwhile, and the list must outlive the hook. */
struct poll_hook {
	struct list_node node;
	struct poll_list *list;
	struct poll_table *table;
	struct file *file;
};

/* One poll() call's: the hooks it has hung (one per file at most), and
 * why it woke. */
struct poll_table {
	struct poll_hook *hooks;
	unsigned nr_hooks, max_hooks;
	struct wait_queue wq;             /* the poller sleeps here alone */
	bool woken;                       /* a hook fired: under wq's lock */
	bool timed_out;                   /* under wq's lock */
	struct timer timer;
};

void poll_list_init(struct poll_list *l, const char *name)
{
	l->lock = (struct spinlock)SPINLOCK_INIT(name);
	list_init(&l->hooks);
}

static void mark_and_wake(struct poll_table *pt, bool *why)
{
	uint64_t flags = spin_lock_irqsave(&pt->wq.lock);
	*why = true;
	wake_up_locked(&pt->wq, 1);
	spin_unlock_irqrestore(&pt->wq.lock, flags);
}

/* The poller takes its hooks off under each list's lock before its table
 * goes: a hook found here is alive until the lock is let go. */
void poll_wake(struct poll_list *l)
{
	uint64_t flags = spin_lock_irqsave(&l->lock);
	struct list_node *n;
	list_for_each(n, &l->hooks) {
		struct poll_table *pt = list_entry(n, struct poll_hook, node)->table;
		mark_and_wake(pt, &pt->woken);
	}
	spin_unlock_irqrestore(&l->lock, flags);
}

void poll_wait(struct poll_table *pt, struct poll_list *l)
{
	if (!pt)
		return;
	for (unsigned i = 0; i < pt->nr_hooks; i++)
		if (pt->hooks[i].list == l)
			return;           /* two descriptors of one pipe: one hook serves */
	if (pt->nr_hooks == pt->max_hooks)
		panic("poll_wait: a file kind's poll hangs more than one hook");   /* kernel/fs/poll.h's rule */
	struct poll_hook *h = &pt->hooks[pt->nr_hooks++];
	*h = (struct poll_hook){ .list = l, .table = pt };
	uint64_t flags = spin_lock_irqsave(&l->lock);
	list_add_tail(&l->hooks, &h->node);
	spin_unlock_irqrestore(&l->lock, flags);
}

static void unhook_all(struct poll_table *pt)
{
	for (unsigned i = 0; i < pt->nr_hooks; i++) {
		struct poll_list *l = pt->hooks[i].list;
		uint64_t flags = spin_lock_irqsave(&l->lock);
		list_remove(&pt->hooks[i].node);
		spin_unlock_irqrestore(&l->lock, flags);
		file_put(pt->hooks[i].file);
	}
	pt->nr_hooks = 0;
}

static void poll_timed_out(struct timer *t)
{
	struct poll_table *pt = container_of(t, struct poll_table, timer);
	mark_and_wake(pt, &pt->timed_out);
}

/* Ask every file once; with pt, hang hooks as they are asked. How many
 * have events for their caller. */
static unsigned ask_files(struct pollfd *fds, unsigned nfds, struct poll_table *pt)
{
	struct fdtable *files = current()->process->files;
	unsigned ready = 0;
	for (unsigned i = 0; i < nfds; i++) {
		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;                 /* ignored, as Linux: a way to skip an entry */
		struct file *f = fd_get(files, fds[i].fd);
		if (!f) {
			fds[i].revents = POLLNVAL;
		} else {
			/* Errors and hang-ups are told whether asked for or not. */
			unsigned wanted = (unsigned short)fds[i].events | POLLERR | POLLHUP;
			unsigned hooks = pt ? pt->nr_hooks : 0;
			fds[i].revents = (short)(file_poll(f, pt) & wanted);
			if (pt && pt->nr_hooks > hooks)
				pt->hooks[hooks].file = f;   /* its reference goes with the hook */
			else
				file_put(f);
		}
		ready += fds[i].revents != 0;
	}
	return ready;
}

long poll_files(struct pollfd *fds, unsigned nfds, uint64_t deadline)
{
	struct poll_table pt = { .max_hooks = nfds, .timer = TIMER_INIT(poll_timed_out) };
	wait_queue_init(&pt.wq, "poll");
	if (nfds && !(pt.hooks = kmalloc(nfds * sizeof(*pt.hooks))))
		return -ENOMEM;
	struct task *me = current();
	bool timer_armed = deadline && deadline != FOREVER_NS;
	if (timer_armed) {
		me->wake_timer = &pt.timer;
		timer_start(&pt.timer, deadline);
	}
	long ready;
	for (bool first = true;; first = false) {
		uint64_t flags = spin_lock_irqsave(&pt.wq.lock);
		pt.woken = false;
		spin_unlock_irqrestore(&pt.wq.lock, flags);
		/* Hooks hang in the first round and stay for the later ones. */
		ready = ask_files(fds, nfds, deadline && first ? &pt : NULL);
		if (ready || !deadline)
			break;
		if (wait_event_interruptible(&pt.wq, pt.woken || pt.timed_out)) {
			ready = -EINTR;
			break;
		}
		if (pt.timed_out && !pt.woken) {
			ready = ask_files(fds, nfds, NULL);   /* the last word: 0 unless a change just came */
			break;
		}
	}
	if (timer_armed) {
		timer_cancel(&pt.timer);
		me->wake_timer = NULL;
	}
	unhook_all(&pt);
	kfree(pt.hooks);
	return ready;
}
