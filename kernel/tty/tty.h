/*
 * The console terminal: /dev/console as programs see it. Typed bytes come
 * from the serial port's interrupt and go through the line discipline
 * (lib/ldisc.h); programs read its lines and write to the screen.
 *
 * Job control, as POSIX has it: the terminal is the controlling terminal
 * of one session, and one process group of that session is in the
 * foreground. That group alone gets the keyboard's signals (Ctrl-C, Ctrl-\,
 * Ctrl-Z) and may read; a background group that reads is stopped with
 * SIGTTIN, one that changes the settings with SIGTTOU, so that a shell
 * can hand the terminal from job to job (tcsetpgrp). The session is the
 * first program's the kernel starts (kernel/task/process.c), or a session
 * leader's that asks (TIOCSCTTY); it is let go when its leader ends.
 * docs/userspace.md, "The terminal".
 */
#pragma once
#include <stdint.h>
#include "lib/ldisc.h"
#include "kernel/spinlock.h"
#include "kernel/fs/poll.h"
#include "sched/wait.h"

struct file;
struct file_ops;
extern const struct file_ops tty_file_ops;

void tty_init(void);
/* The serial port's interrupt: one typed byte. */
void tty_receive(uint8_t c);

/* The kernel started a program in session sid, group pgid: the console
 * becomes its controlling terminal, if no session has it. */
void tty_offer(int sid, int pgid);
/* Session sid's leader has ended: if the console was its controlling
 * terminal, the foreground group hears (SIGHUP, then SIGCONT) and the
 * console is free. */
void tty_session_ended(int sid);

/* What kernel/tty/tty.c and kernel/tty/tty_ioctl.c share. */
struct winsize {
	uint16_t rows, cols, xpixels, ypixels;
};

struct tty {
	/* The line discipline and the rest below; taken from the interrupt,
	 * and the innermost lock: nothing is called while it is held but the
	 * echo's console_write(). */
	struct spinlock lock;
	struct ldisc ldisc;
	int sid;                          /* the session it controls; 0: none */
	int fg_pgrp;                      /* its foreground process group */
	struct winsize size;
	struct wait_queue readable;       /* readers wait here for input */
	struct poll_list pollers;
};
extern struct tty console_tty;

/* Job control for the calling process, before it acts on the terminal
 * with `sig` at stake (SIGTTIN to read, SIGTTOU to write or change the
 * settings): 0 to go on; -ERESTARTSYS once its group has been sent sig
 * (it stops, and tries again when continued); -EIO where a stop would
 * be for ever (an orphaned group; a read with SIGTTIN ignored or blocked). */
long tty_job_control(struct tty *tty, int sig);
/* Is the terminal the calling process's controlling terminal? */
bool tty_controls_caller(struct tty *tty);
/* Typed input arrived, or the settings changed: wake readers and pollers. */
void tty_input_changed(struct tty *tty);
long tty_ioctl(struct file *f, unsigned cmd, uint64_t arg);
