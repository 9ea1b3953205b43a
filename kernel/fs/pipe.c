/*
 * Pipes. The buffer is a ring of PIPE_PAGES pages, each allocated when the
 * ring first reaches it and kept until the pipe goes: the capacity is
 * Linux's, and a pipe that carries little costs little. head and tail
 * count the bytes ever written and read, so head - tail bytes wait in it.
 *
 * The mutex guards the ring and the counts of open ends. It is held
 * across the copies to and from the caller's memory, which is why it is
 * a mutex: a copy may fault, and a fault may wait for the address space's
 * lock. That is safe because no one takes a pipe's mutex holding that
 * lock, or any lock taken under it (docs/userspace.md, "Locks and user
 * copies"), as Linux holds its pipe's mutex across the copies.
 * A reader or writer that must wait lets go of it and sleeps on a wait
 * queue; its condition reads head, tail and the counts without the mutex,
 * which is why they are accessed atomically. Whoever changes the ring or a
 * count wakes the other side's queue afterwards, and the queue's lock
 * orders that wake-up with the sleeper's check (sched/wait.h): no wake-up
 * is lost.
 */
#include "kernel/fs/pipe.h"
#include "kernel/fs/file.h"
#include "kernel/fs/poll.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/errno.h"
#include "sched/task.h"
#include "sched/platform.h"
#include "arch/x86_64/memlayout.h"
#include "lib/string.h"
#include "lib/util.h"

#define PIPE_PAGES 16
#define PIPE_SIZE (PIPE_PAGES * PAGE_SIZE)

struct pipe {
	struct mutex lock;
	struct wait_queue readable;       /* readers wait here for bytes, or for the last writer to go */
	struct wait_queue writable;       /* writers wait here for room, or for the last reader to go */
	struct poll_list pollers;         /* poll() waits on both sides here */
	char *page[PIPE_PAGES];           /* NULL until the ring first reaches it */
	uint32_t head, tail;              /* bytes ever written, and read; they wrap together */
	int readers, writers;             /* open ends */
	uint64_t ino;                     /* fstat()'s st_ino: tells pipes apart */
};

static uint32_t load_u32(const uint32_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static int load_int(const int *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static size_t pipe_used(const struct pipe *p)
{
	return load_u32(&p->head) - load_u32(&p->tail);
}

static size_t pipe_room(const struct pipe *p)
{
	return PIPE_SIZE - pipe_used(p);
}

/* The wait conditions. */
static bool can_read(const struct pipe *p)
{
	return pipe_used(p) > 0 || load_int(&p->writers) == 0;
}

static bool can_write(const struct pipe *p, size_t room)
{
	return pipe_room(p) >= room || load_int(&p->readers) == 0;
}

/* One side can go on: wake it, and whoever polls the pipe. */
static void pipe_changed(struct pipe *p, struct wait_queue *side)
{
	wake_up_all(side);
	poll_wake(&p->pollers);
}

/* Let go of the pipe, sleep on wq until cond holds, take the pipe again:
 * 0, or -ERESTARTSYS if a signal came first (the call runs again, or says
 * EINTR after a handler; SIGKILL must reach a reader nobody writes to). */
#define pipe_wait(p, wq, cond)                                        \
	({                                                            \
		mutex_unlock(&(p)->lock);                             \
		int interrupted_ = wait_event_interruptible(wq, cond); \
		mutex_lock(&(p)->lock);                               \
		interrupted_ ? -ERESTARTSYS : 0;                      \
	})

/* Move what is wanted and waiting from the ring to the cursor: the bytes
 * moved, fewer only if the cursor's memory faulted. */
static size_t ring_to_cursor(struct pipe *p, struct io_cursor *to)
{
	size_t done = 0;
	while (io_left(to) > 0 && pipe_used(p) > 0) {
		uint32_t at = p->tail % PIPE_SIZE;
		size_t n = MIN(MIN(io_left(to), pipe_used(p)), PAGE_SIZE - at % PAGE_SIZE);
		size_t got = copy_to_cursor(to, p->page[at / PAGE_SIZE] + at % PAGE_SIZE, n);
		__atomic_store_n(&p->tail, p->tail + (uint32_t)got, __ATOMIC_RELAXED);
		done += got;
		if (got < n)
			break;
	}
	if (done)
		pipe_changed(p, &p->writable);
	return done;
}

/* Move what fits from the cursor into the ring, adding the bytes moved to
 * *done: 0, or -EFAULT or -ENOMEM if it stopped short for that. */
static int cursor_to_ring(struct pipe *p, struct io_cursor *from, size_t *done)
{
	size_t before = *done;
	int err = 0;
	while (io_left(from) > 0 && pipe_room(p) > 0 && !err) {
		uint32_t at = p->head % PIPE_SIZE;
		char **page = &p->page[at / PAGE_SIZE];
		if (!*page && !(*page = page_alloc())) {
			err = -ENOMEM;
			break;
		}
		size_t n = MIN(MIN(io_left(from), pipe_room(p)), PAGE_SIZE - at % PAGE_SIZE);
		size_t got = copy_from_cursor(from, *page + at % PAGE_SIZE, n);
		__atomic_store_n(&p->head, p->head + (uint32_t)got, __ATOMIC_RELAXED);
		*done += got;
		if (got < n)
			err = -EFAULT;
	}
	if (*done > before)
		pipe_changed(p, &p->readable);
	return err;
}

static long pipe_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)pos;
	struct pipe *p = f->private;
	long ret = 0;
	mutex_lock(&p->lock);
	while (pipe_used(p) == 0 && p->writers > 0 && !ret) {
		if (file_nonblocking(f))
			ret = -EAGAIN;
		else
			ret = pipe_wait(p, &p->readable, can_read(p));
	}
	if (pipe_used(p) > 0)             /* else the end (0), or -EAGAIN */
		ret = io_result(ring_to_cursor(p, to), -EFAULT);
	mutex_unlock(&p->lock);
	return ret;
}

static long pipe_write(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	(void)pos;
	struct pipe *p = f->private;
	/* A small write waits for room for all of it, and so goes in whole. */
	size_t room_needed = io_left(from) <= PIPE_BUF ? io_left(from) : 1;
	size_t done = 0;
	long err = 0;
	mutex_lock(&p->lock);
	while (io_left(from) > 0 && !err) {
		if (p->readers == 0)
			err = -EPIPE;     /* Linux also sends SIGPIPE: not until there are signals */
		else if (pipe_room(p) >= room_needed)
			err = cursor_to_ring(p, from, &done);
		else if (file_nonblocking(f))
			err = -EAGAIN;
		else
			err = pipe_wait(p, &p->writable, can_write(p, room_needed));
	}
	mutex_unlock(&p->lock);
	return io_result(done, err);
}

static int pipe_stat(struct file *f, struct stat *st)
{
	const struct pipe *p = f->private;
	st->st_mode = S_IFIFO | 0600;
	st->st_ino = p->ino;
	st->st_blksize = PAGE_SIZE;
	return 0;
}

static void pipe_free(struct pipe *p)
{
	for (int i = 0; i < PIPE_PAGES; i++)
		if (p->page[i])
			page_free(p->page[i]);
	kfree(p);
}

/* An end closes: the other side learns it at once, a reader finding the
 * end and a writer -EPIPE. Whoever closes the second end frees the pipe:
 * by the time it could take the mutex, the first has let go of it. */
static void pipe_release(struct file *f)
{
	struct pipe *p = f->private;
	mutex_lock(&p->lock);
	if ((file_flags(f) & O_ACCMODE) == O_RDONLY) {
		__atomic_store_n(&p->readers, p->readers - 1, __ATOMIC_RELAXED);
		pipe_changed(p, &p->writable);
	} else {
		__atomic_store_n(&p->writers, p->writers - 1, __ATOMIC_RELAXED);
		pipe_changed(p, &p->readable);
	}
	bool last = p->readers == 0 && p->writers == 0;
	mutex_unlock(&p->lock);
	if (last)
		pipe_free(p);
}

/* Linux's answers: the read end is readable with bytes waiting and hung
 * up once no writer is left; the write end writable with room for a
 * write of PIPE_BUF bytes (which is all or nothing), and in error once no
 * reader is left. */
static unsigned pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = f->private;
	poll_wait(pt, &p->pollers);
	unsigned mask = 0;
	if ((file_flags(f) & O_ACCMODE) == O_RDONLY) {
		if (pipe_used(p) > 0)
			mask |= POLLIN | POLLRDNORM;
		if (load_int(&p->writers) == 0)
			mask |= POLLHUP;
	} else {
		if (pipe_room(p) >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (load_int(&p->readers) == 0)
			mask |= POLLERR;
	}
	return mask;
}

static const struct file_ops pipe_ops = {
	.poll = pipe_poll,
	.read = pipe_read,
	.write = pipe_write,
	.stat = pipe_stat,
	.release = pipe_release,
};

int pipe_create(unsigned flags, struct file **read_end, struct file **write_end)
{
	static uint64_t pipes_made;
	struct pipe *p = kzalloc(sizeof(*p));
	unsigned nonblock = flags & O_NONBLOCK;
	struct file *r = p ? file_create(&pipe_ops, O_RDONLY | nonblock, p) : NULL;
	struct file *w = r ? file_create(&pipe_ops, O_WRONLY | nonblock, p) : NULL;
	if (!w) {
		kfree(r);                 /* never used: nothing to release */
		kfree(p);
		return -ENOMEM;
	}
	mutex_init(&p->lock, "pipe");
	wait_queue_init(&p->readable, "pipe readable");
	wait_queue_init(&p->writable, "pipe writable");
	poll_list_init(&p->pollers, "pipe pollers");
	p->readers = p->writers = 1;
	p->ino = __atomic_add_fetch(&pipes_made, 1, __ATOMIC_RELAXED);
	*read_end = r;
	*write_end = w;
	return 0;
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/pipe_test.c"
