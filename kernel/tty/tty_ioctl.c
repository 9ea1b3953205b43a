/*
 * The console terminal's requests (ioctl), with Linux's numbers, rules
 * and errors: its settings (termios), its size, its foreground process
 * group and session, and how much input waits.
 */
#include "kernel/tty/tty.h"
#include "kernel/fs/file.h"
#include "kernel/task/process.h"
#include "kernel/errno.h"
#include "kernel/task/kthread.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"

enum {
	TCGETS = 0x5401, TCSETS = 0x5402, TCSETSW = 0x5403, TCSETSF = 0x5404,
	TCXONC = 0x540A, TCFLSH = 0x540B, TIOCSCTTY = 0x540E, TIOCGPGRP = 0x540F,
	TIOCSPGRP = 0x5410, TIOCOUTQ = 0x5411, TIOCGWINSZ = 0x5413, TIOCSWINSZ = 0x5414,
	FIONREAD = 0x541B, TIOCNOTTY = 0x5422, TIOCGSID = 0x5429,
};
enum { TCIFLUSH, TCOFLUSH, TCIOFLUSH };        /* TCFLSH's argument */
enum { TCOOFF, TCOON, TCIOFF, TCION };         /* TCXONC's */

static long put_int(uint64_t arg, int value)
{
	return copy_to_user((void *)arg, &value, sizeof(value));
}

/* TCSETS and its kin: output is written at once, so "after the output
 * drains" (W) is now; F throws away the unread input first. */
static long set_termios(struct tty *tty, unsigned cmd, uint64_t arg)
{
	struct termios t;
	long err = tty_job_control(tty, SIGTTOU);
	if (!err)
		err = copy_from_user(&t, (const void *)arg, sizeof(t));
	if (err)
		return err;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	if (cmd == TCSETSF)
		ldisc_flush(&tty->ldisc);
	ldisc_set_termios(&tty->ldisc, &t);
	spin_unlock_irqrestore(&tty->lock, flags);
	tty_input_changed(tty);                   /* leaving canonical mode may hand over a line */
	return 0;
}

static long flush(struct tty *tty, uint64_t which)
{
	if (which > TCIOFLUSH)
		return -EINVAL;
	long err = tty_job_control(tty, SIGTTOU);
	if (err || which == TCOFLUSH)
		return err;                       /* no output waits to be thrown away */
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	ldisc_flush(&tty->ldisc);
	spin_unlock_irqrestore(&tty->lock, flags);
	return 0;
}

/* tcsetpgrp(): the caller's session's group that is to be in the foreground. */
static long set_foreground(struct tty *tty, uint64_t arg)
{
	int pgrp;
	long err = tty_job_control(tty, SIGTTOU);
	if (err)
		return err == -EIO ? -ENOTTY : err;
	if ((err = copy_from_user(&pgrp, (const void *)arg, sizeof(pgrp))))
		return err;
	if (pgrp < 0)
		return -EINVAL;
	if (!tty_controls_caller(tty))
		return -ENOTTY;
	if ((err = process_group_in_session(pgrp, process_getsid(0))))
		return err;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	tty->fg_pgrp = pgrp;
	spin_unlock_irqrestore(&tty->lock, flags);
	return 0;
}

/* TIOCSCTTY: a session leader without a terminal takes this one (from
 * another session too if arg is 1: the caller is root, as every process is). */
static long take_as_controlling(struct tty *tty, uint64_t arg)
{
	int pid = current()->process->pid, sid = process_getsid(0);
	if (tty_controls_caller(tty))
		return 0;
	if (sid != pid)
		return -EPERM;
	long err = 0;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	if (tty->sid && arg != 1)
		err = -EPERM;
	else {
		tty->sid = sid;
		tty->fg_pgrp = process_getpgid(0);
	}
	spin_unlock_irqrestore(&tty->lock, flags);
	return err;
}

static long set_size(struct tty *tty, uint64_t arg)
{
	struct winsize size;
	long err = copy_from_user(&size, (const void *)arg, sizeof(size));
	if (err)
		return err;
	uint64_t flags = spin_lock_irqsave(&tty->lock);
	bool changed = size.rows != tty->size.rows || size.cols != tty->size.cols;
	tty->size = size;
	int pgrp = tty->fg_pgrp;
	spin_unlock_irqrestore(&tty->lock, flags);
	if (changed && pgrp)
		process_signal_group(pgrp, SIGWINCH);
	return 0;
}

long tty_ioctl(struct file *f, unsigned cmd, uint64_t arg)
{
	(void)f;
	struct tty *tty = &console_tty;
	uint64_t flags;
	switch (cmd) {
	case TCGETS: {
		flags = spin_lock_irqsave(&tty->lock);
		struct termios t = tty->ldisc.termios;
		spin_unlock_irqrestore(&tty->lock, flags);
		return copy_to_user((void *)arg, &t, sizeof(t));
	}
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return set_termios(tty, cmd, arg);
	case TCFLSH:
		return flush(tty, arg);
	case TCXONC:
		return arg <= TCION ? 0 : -EINVAL;        /* output is never held back */
	case TIOCGWINSZ: {
		flags = spin_lock_irqsave(&tty->lock);
		struct winsize size = tty->size;
		spin_unlock_irqrestore(&tty->lock, flags);
		return copy_to_user((void *)arg, &size, sizeof(size));
	}
	case TIOCSWINSZ:
		return set_size(tty, arg);
	case FIONREAD: {
		flags = spin_lock_irqsave(&tty->lock);
		int pending = (int)ldisc_pending(&tty->ldisc);
		spin_unlock_irqrestore(&tty->lock, flags);
		return put_int(arg, pending);
	}
	case TIOCOUTQ:
		return put_int(arg, 0);
	case TIOCGPGRP:
	case TIOCGSID:
		if (!tty_controls_caller(tty))
			return -ENOTTY;
		return put_int(arg, cmd == TIOCGSID ? process_getsid(0) : __atomic_load_n(&tty->fg_pgrp, __ATOMIC_RELAXED));
	case TIOCSPGRP:
		return set_foreground(tty, arg);
	case TIOCSCTTY:
		return take_as_controlling(tty, arg);
	case TIOCNOTTY:
		/* Only a session leader's gives the terminal up (every process
		 * of the session would on Linux; here a session has it or not). */
		if (!tty_controls_caller(tty))
			return -ENOTTY;
		if (process_getsid(0) == current()->process->pid)
			tty_session_ended(process_getsid(0));
		return 0;
	default:
		return -ENOTTY;
	}
}
