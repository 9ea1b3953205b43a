/*
 * The line discipline: what a terminal does with typed bytes before a
 * program reads them, Linux's default one (n_tty) in its essentials.
 *
 * In canonical mode (ICANON) it holds the line being typed, lets the
 * typist correct it (erase, kill, word erase) and hands it to readers
 * whole, at a newline or an end of file (Ctrl-D). Otherwise each byte is
 * readable as it comes: what full-screen programs ask for. It echoes what
 * is typed (ECHO), turns the interrupt keys into signals (ISIG) and a
 * typed carriage return into a newline (ICRNL).
 *
 * Pure: no locks, no devices, no signals sent. Its owner (kernel/tty/tty.c)
 * holds a lock around every call, prints the echo, sends the signal and
 * wakes the readers; so the rules are tested on the host (tests/host/ldisc_test.c).
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux's struct termios, as TCGETS and TCSETS move it, and its flags. */
#define NCCS 19
struct termios {
	uint32_t iflag, oflag, cflag, lflag;
	uint8_t line;
	uint8_t cc[NCCS];
};
enum {                                     /* iflag */
	INLCR = 0000100, IGNCR = 0000200, ICRNL = 0000400, IXON = 0002000,
};
enum {                                     /* oflag, cflag */
	OPOST = 0000001, ONLCR = 0000004,
	B38400 = 0000017, CS8 = 0000060, CREAD = 0000200, HUPCL = 0002000,
};
enum {                                     /* lflag */
	ISIG = 0000001, ICANON = 0000002, ECHO = 0000010, ECHOE = 0000020, ECHOK = 0000040,
	ECHONL = 0000100, NOFLSH = 0000200, TOSTOP = 0000400, ECHOCTL = 0001000,
	ECHOKE = 0004000, IEXTEN = 0100000,
};
enum {                                     /* cc's indices: the special keys */
	VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN, VSWTC, VSTART, VSTOP, VSUSP, VEOL,
	VREPRINT, VDISCARD, VWERASE, VLNEXT, VEOL2,
};
#define CTRL(c) ((c) & 037)
#define VDISABLE 0                         /* a key set to this is off */

/* Bytes held, typed and not yet read: Linux's figure. A canonical line
 * can be one shorter, so that a newline always fits to end it. */
#define LDISC_SIZE 4096

struct ldisc {
	struct termios termios;
	/* Where the echo goes (the screen), and its argument. */
	void (*echo)(void *ctx, const char *s, size_t n);
	void *ctx;
	uint8_t byte[LDISC_SIZE];              /* a ring */
	uint8_t mark[LDISC_SIZE];              /* byte[i] ends a line; or is an end of file, not data */
	/* Counts of bytes ever stored, wrapping together: readers may take
	 * [tail, line_start); [line_start, head) is the line being typed,
	 * which only canonical mode has. */
	uint32_t tail, line_start, head;
	bool literal_next;                     /* VLNEXT was typed: the next byte is only a byte */
};

/* A terminal as Linux sets one up: canonical, echoing, ISIG, ICRNL. */
void ldisc_init(struct ldisc *l, void (*echo)(void *ctx, const char *s, size_t n), void *ctx);

/* What a typed byte asks of the terminal's foreground process group:
 * nothing, or SIGINT, SIGQUIT or SIGTSTP (kernel/tty/tty.c sends them). */
enum ldisc_signal { LDISC_NO_SIGNAL, LDISC_INTERRUPT, LDISC_QUIT, LDISC_SUSPEND };

/* One typed byte: stored, echoed, or acted on. */
enum ldisc_signal ldisc_receive(struct ldisc *l, uint8_t c);

/* Whether a read would take something now: a whole line (or an end of
 * file) in canonical mode, else at least `min` bytes. */
bool ldisc_readable(const struct ldisc *l, size_t min);
/* Move up to n readable bytes to dst; the count. In canonical mode it
 * stops after a line's end and *line_done says so (an end of file ends a
 * line too, and is not copied: a read that meets it first returns 0). */
size_t ldisc_read(struct ldisc *l, uint8_t *dst, size_t n, bool *line_done);
/* FIONREAD: the bytes a reader could take now. */
size_t ldisc_pending(const struct ldisc *l);
/* Throw away everything typed and not read (tcflush's TCIFLUSH). */
void ldisc_flush(struct ldisc *l);
/* TCSETS. Leaving canonical mode makes the line being typed readable;
 * entering it makes what was unread the line being typed, as on Linux. */
void ldisc_set_termios(struct ldisc *l, const struct termios *t);
