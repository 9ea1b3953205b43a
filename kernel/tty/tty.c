/*
 * The console terminal (kernel/tty/tty.h): typed input through the line
 * discipline to readers, writes to the screen, and job control. Its
 * requests (ioctl) are kernel/tty/tty_ioctl.c's.
 */
#include "kernel/tty/tty.h"
#include "kernel/fs/file.h"
#include "kernel/printk.h"
#include "kernel/task/process.h"
#include "kernel/task/thread.h"
#include "kernel/time/timer.h"
#include "kernel/errno.h"
#include "kernel/task/kthread.h"
#include "sched/platform.h"
#include "arch/x86_64/time.h"
#include "lib/util.h"

static void echo_to_screen(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

struct tty console_tty = {
	.lock = SPINLOCK_INIT("tty"),
	.size = { .rows = 24, .cols = 80 },
	.readable = WAIT_QUEUE_INIT(console_tty.readable, "tty readers"),
};

void tty_init(void)
{
	ldisc_init(&console_tty.ldisc, echo_to_screen, NULL);
	poll_list_init(&console_tty.pollers, "tty pollers");
}

void tty_input_changed(struct tty *tty)
{
	wake_up_all(&tty->readable);
	poll_wake(&tty->pollers);
}

void tty_receive(uint8_t c)
{
	static const int signal_of[] = {
		[LDISC_INTERRUPT] = SIGINT, [LDISC_QUIT] = SIGQUIT, [LDISC_SUSPEND] = SIGTSTP,
	};
	struct tty *tty = &console_tty;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	enum ldisc_signal sig = ldisc_receive(&tty->ldisc, c);
	int pgrp = tty->fg_pgrp;
	spin_unlock_irqrestore(&tty->lock, flags);
	if (sig != LDISC_NO_SIGNAL && pgrp)
		process_signal_group(pgrp, signal_of[sig]);
	tty_input_changed(tty);
}

void tty_offer(int sid, int pgid)
{
	struct tty *tty = &console_tty;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	if (!tty->sid) {
		tty->sid = sid;
		tty->fg_pgrp = pgid;
	}
	spin_unlock_irqrestore(&tty->lock, flags);
}

void tty_session_ended(int sid)
{
	struct tty *tty = &console_tty;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	int pgrp = 0;
	if (tty->sid == sid) {
		pgrp = tty->fg_pgrp;
		tty->sid = tty->fg_pgrp = 0;
	}
	spin_unlock_irqrestore(&tty->lock, flags);
	if (pgrp) {
		process_signal_group(pgrp, SIGHUP);
		process_signal_group(pgrp, SIGCONT);
	}
}

bool tty_controls_caller(struct tty *tty)
{
	int sid = process_getsid(0);
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	bool controls = tty->sid && tty->sid == sid;
	spin_unlock_irqrestore(&tty->lock, flags);
	return controls;
}

long tty_job_control(struct tty *tty, int sig)
{
	struct task *me = current();
	if (!me->process)
		return 0;                         /* the kernel's own tests */
	int pgid = process_getpgid(0);
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	bool background = tty->fg_pgrp != pgid;
	spin_unlock_irqrestore(&tty->lock, flags);
	if (!background || !tty_controls_caller(tty))
		return 0;
	/* A process that will not stop for it: a reader fails, a writer goes on. */
	if (!signal_wanted(me->process, sig) || (me->thread->blocked & sigmask_of(sig)))
		return sig == SIGTTIN ? -EIO : 0;
	if (process_group_orphaned(pgid))
		return -EIO;
	process_signal_group(pgid, sig);
	return -ERESTARTSYS;
}

static bool input_ready(struct tty *tty, size_t min)
{
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	bool ready = ldisc_readable(&tty->ldisc, min);
	spin_unlock_irqrestore(&tty->lock, flags);
	return ready;
}

/* VTIME's timer: when it fires, the read returns what there is. */
struct read_timer {
	struct timer timer;
	bool expired;                     /* atomic */
};

static void read_timer_fired(struct timer *t)
{
	__atomic_store_n(&container_of(t, struct read_timer, timer)->expired, true, __ATOMIC_RELAXED);
	wake_up_all(&console_tty.readable);
}

/* What wait_for_input() found: input to read, or the time to read
 * whatever there is, even nothing. */
enum { INPUT_READY, READ_WHAT_THERE_IS };

/* Wait for min bytes, or VTIME's deciseconds, whichever first. */
static long wait_timed(struct tty *tty, size_t min, uint64_t timeout_ns)
{
	struct read_timer rt = { .timer = TIMER_INIT(read_timer_fired) };
	timer_start(&rt.timer, clock_ns() + timeout_ns);
	int interrupted = wait_event_interruptible(&tty->readable,
		input_ready(tty, min) || __atomic_load_n(&rt.expired, __ATOMIC_RELAXED));
	timer_cancel(&rt.timer);
	return interrupted ? -ERESTARTSYS : READ_WHAT_THERE_IS;
}

/* Wait until a read of `want` bytes can go on, the termios way: a line in
 * canonical mode; otherwise VMIN bytes, with VTIME (tenths of a second)
 * the longest wait (VMIN 0) or the longest after the first byte. */
static long wait_for_input(struct tty *tty, struct file *f, size_t want)
{
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	struct termios t = tty->ldisc.termios;
	spin_unlock_irqrestore(&tty->lock, flags);
	bool canonical = t.lflag & ICANON;
	size_t min = canonical ? 1 : MIN(t.cc[VMIN], want);
	uint64_t timeout_ns = canonical ? 0 : t.cc[VTIME] * 100000000ULL;
	if (input_ready(tty, MAX(min, 1)))
		return INPUT_READY;
	if (!min && !timeout_ns)
		return READ_WHAT_THERE_IS;        /* VMIN 0, VTIME 0: only a look */
	if (file_nonblocking(f))
		return -EAGAIN;
	if (!timeout_ns)
		return wait_event_interruptible(&tty->readable, input_ready(tty, min)) ? -ERESTARTSYS : INPUT_READY;
	if (!min)
		return wait_timed(tty, 1, timeout_ns);
	if (wait_event_interruptible(&tty->readable, input_ready(tty, 1)))
		return -ERESTARTSYS;
	return wait_timed(tty, min, timeout_ns);
}

/* At most one line in canonical mode (0 at an end of file); otherwise
 * what the wait found, and more that came since. */
static long read_input(struct tty *tty, struct io_cursor *to, bool *line_done)
{
	size_t done = 0, n;
	do {
		uint8_t chunk[256];
		uint64_t flags = spin_lock_irqsave(&tty->lock);
		n = ldisc_read(&tty->ldisc, chunk, MIN(sizeof(chunk), io_left(to)), line_done);
		spin_unlock_irqrestore(&tty->lock, flags);
		size_t copied = copy_to_cursor(to, chunk, n);
		done += copied;
		if (copied < n)
			return io_result(done, -EFAULT);
	} while (n && !*line_done && io_left(to) > 0);
	return (long)done;
}

static long tty_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)pos;
	struct tty *tty = &console_tty;
	long ret = tty_job_control(tty, SIGTTIN);
	while (!ret) {
		long found = wait_for_input(tty, f, io_left(to));
		if (found < 0)
			return found;
		bool line_done;
		ret = read_input(tty, to, &line_done);
		/* Nothing, though the wait said there was: Ctrl-C flushed it
		 * in between. Wait again; the signal will end the wait. */
		if (line_done || found == READ_WHAT_THERE_IS)
			break;
	}
	return ret;
}

static long tty_write(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	(void)f;
	(void)pos;
	struct tty *tty = &console_tty;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	bool tostop = tty->ldisc.termios.lflag & TOSTOP;
	spin_unlock_irqrestore(&tty->lock, flags);
	long err = tostop ? tty_job_control(tty, SIGTTOU) : 0;
	if (err)
		return err;
	/* Gathered so that a write reaches the screen in as few pieces as
	 * it can: another program's output can come only between pieces.
	 * musl's printf is one writev of a few short buffers: one piece. */
	char piece[512];
	size_t written = 0;
	while (io_left(from) > 0) {
		size_t want = MIN(io_left(from), sizeof(piece));
		size_t got = copy_from_cursor(from, piece, want);
		console_write(piece, got);
		written += got;
		if (got < want)
			return io_result(written, -EFAULT);
	}
	return (long)written;
}

static unsigned tty_poll(struct file *f, struct poll_table *pt)
{
	(void)f;
	struct tty *tty = &console_tty;
	poll_wait(pt, &tty->pollers);
	return (input_ready(tty, 1) ? POLLIN | POLLRDNORM : 0) | POLLOUT | POLLWRNORM;
}

/* What /dev/console is (kernel/fs/fs.c). */
const struct file_ops tty_file_ops = {
	.read = tty_read,
	.write = tty_write,
	.ioctl = tty_ioctl,
	.poll = tty_poll,
};
