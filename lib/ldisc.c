#include "lib/ldisc.h"
#include "lib/string.h"

/* A stored byte's marks. */
enum { LINE_END = 1, END_OF_FILE = 2 };

/* What Linux gives a new terminal (its tty_std_termios). */
static const struct termios linux_default = {
	.iflag = ICRNL | IXON,
	.oflag = OPOST | ONLCR,
	.cflag = B38400 | CS8 | CREAD | HUPCL,
	.lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.cc = {
		[VINTR] = CTRL('C'), [VQUIT] = CTRL('\\'), [VERASE] = 0177, [VKILL] = CTRL('U'),
		[VEOF] = CTRL('D'), [VMIN] = 1, [VSTART] = CTRL('Q'), [VSTOP] = CTRL('S'),
		[VSUSP] = CTRL('Z'), [VREPRINT] = CTRL('R'), [VDISCARD] = CTRL('O'),
		[VWERASE] = CTRL('W'), [VLNEXT] = CTRL('V'),
	},
};

void ldisc_init(struct ldisc *l, void (*echo)(void *ctx, const char *s, size_t n), void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->termios = linux_default;
	l->echo = echo;
	l->ctx = ctx;
}

static bool on(const struct ldisc *l, uint32_t lflag)
{
	return l->termios.lflag & lflag;
}

static bool is_key(const struct ldisc *l, int key, uint8_t c)
{
	return l->termios.cc[key] != VDISABLE && l->termios.cc[key] == c;
}

static void echo(struct ldisc *l, const char *s, size_t n)
{
	if (l->echo)
		l->echo(l->ctx, s, n);
}

/* Shown as ^X when echoed under ECHOCTL: the control characters but tab
 * and newline, and DEL (^?). */
static bool shown_as_caret(const struct ldisc *l, uint8_t c)
{
	return on(l, ECHOCTL) && (c < ' ' || c == 0177) && c != '\t' && c != '\n';
}

static void echo_byte(struct ldisc *l, uint8_t c)
{
	if (!on(l, ECHO))
		return;
	if (shown_as_caret(l, c)) {
		char caret[2] = { '^', c == 0177 ? '?' : (char)(c + '@') };
		echo(l, caret, 2);
	} else {
		echo(l, (const char *)&c, 1);
	}
}

static bool typing(const struct ldisc *l)
{
	return l->head != l->line_start;
}

/* Keep c; false if there is no room. A canonical line keeps the last
 * place for what ends it (a byte with a mark), so it can always end. */
static bool store(struct ldisc *l, uint8_t c, uint8_t mark)
{
	size_t room = on(l, ICANON) && !mark ? LDISC_SIZE - 1 : LDISC_SIZE;
	if (l->head - l->tail >= room)
		return false;
	l->byte[l->head % LDISC_SIZE] = c;
	l->mark[l->head % LDISC_SIZE] = mark;
	l->head++;
	return true;
}

/* The line being typed is done: readers may have it. */
static void end_line(struct ldisc *l, uint8_t c, uint8_t mark)
{
	if (store(l, c, LINE_END | mark))
		l->line_start = l->head;
}

enum erase { ERASE_BYTE, ERASE_WORD, ERASE_LINE };

/* Take back the end of the line being typed. With ECHOE (and ECHOK and
 * ECHOKE for a whole line) it goes from the screen too, "\b \b" per
 * column; otherwise the key is echoed. A tab is taken back as one column:
 * the line's column on screen is not known here. */
static void erase(struct ldisc *l, uint8_t key, enum erase what)
{
	if (!typing(l))
		return;
	bool visibly = on(l, ECHOE) && (what != ERASE_LINE || (on(l, ECHOK) && on(l, ECHOKE)));
	bool in_word = false;
	while (typing(l)) {
		uint8_t c = l->byte[(l->head - 1) % LDISC_SIZE];
		bool blank = c == ' ' || c == '\t';
		if (what == ERASE_WORD && blank && in_word)
			break;
		in_word |= !blank;
		l->head--;
		if (visibly && on(l, ECHO))
			for (int column = shown_as_caret(l, c) ? 2 : 1; column > 0; column--)
				echo(l, "\b \b", 3);
		if (what == ERASE_BYTE)
			break;
	}
	if (!visibly) {
		echo_byte(l, key);
		if (what == ERASE_LINE && on(l, ECHOK) && on(l, ECHO))
			echo(l, "\n", 1);
	}
}

/* VREPRINT: the key, then the line being typed again on a line of its own. */
static void reprint(struct ldisc *l, uint8_t key)
{
	echo_byte(l, key);
	if (on(l, ECHO))
		echo(l, "\n", 1);
	for (uint32_t i = l->line_start; i != l->head; i++)
		echo_byte(l, l->byte[i % LDISC_SIZE]);
}

static enum ldisc_signal signal_key(const struct ldisc *l, uint8_t c)
{
	if (!on(l, ISIG))
		return LDISC_NO_SIGNAL;
	if (is_key(l, VINTR, c))
		return LDISC_INTERRUPT;
	if (is_key(l, VQUIT, c))
		return LDISC_QUIT;
	if (is_key(l, VSUSP, c))
		return LDISC_SUSPEND;
	return LDISC_NO_SIGNAL;
}

/* A byte that is only a byte: kept and echoed. */
static void ordinary(struct ldisc *l, uint8_t c)
{
	if (!store(l, c, 0))
		return;                   /* full: dropped, as Linux drops it */
	echo_byte(l, c);
	if (!on(l, ICANON))
		l->line_start = l->head;
}

static void canonical(struct ldisc *l, uint8_t c)
{
	bool extended = on(l, IEXTEN);
	if (is_key(l, VERASE, c)) {
		erase(l, c, ERASE_BYTE);
	} else if (is_key(l, VKILL, c)) {
		erase(l, c, ERASE_LINE);
	} else if (extended && is_key(l, VWERASE, c)) {
		erase(l, c, ERASE_WORD);
	} else if (extended && is_key(l, VREPRINT, c)) {
		reprint(l, c);
	} else if (is_key(l, VEOF, c)) {
		end_line(l, 0, END_OF_FILE);          /* not echoed, not data */
	} else if (c == '\n' || is_key(l, VEOL, c) || (extended && is_key(l, VEOL2, c))) {
		if (on(l, ECHO) || on(l, ECHONL))
			echo(l, (const char *)&c, 1);
		end_line(l, c, 0);
	} else {
		ordinary(l, c);
	}
}

enum ldisc_signal ldisc_receive(struct ldisc *l, uint8_t c)
{
	const struct termios *t = &l->termios;
	if (l->literal_next) {
		l->literal_next = false;
		ordinary(l, c);
		return LDISC_NO_SIGNAL;
	}
	if (c == '\r' && (t->iflag & IGNCR))
		return LDISC_NO_SIGNAL;
	if (c == '\r' && (t->iflag & ICRNL))
		c = '\n';
	else if (c == '\n' && (t->iflag & INLCR))
		c = '\r';
	enum ldisc_signal sig = signal_key(l, c);
	if (sig != LDISC_NO_SIGNAL) {
		if (!on(l, NOFLSH))
			ldisc_flush(l);
		echo_byte(l, c);
		return sig;
	}
	/* Output is never held back here, so the flow-control keys are only swallowed. */
	if ((t->iflag & IXON) && (is_key(l, VSTART, c) || is_key(l, VSTOP, c)))
		return LDISC_NO_SIGNAL;
	if (on(l, IEXTEN) && is_key(l, VLNEXT, c)) {
		l->literal_next = true;
		if (on(l, ECHO) && on(l, ECHOCTL))
			echo(l, "^\b", 2);            /* the next byte's echo covers it */
		return LDISC_NO_SIGNAL;
	}
	if (on(l, ICANON))
		canonical(l, c);
	else
		ordinary(l, c);
	return LDISC_NO_SIGNAL;
}

bool ldisc_readable(const struct ldisc *l, size_t min)
{
	size_t ready = l->line_start - l->tail;
	return on(l, ICANON) ? ready > 0 : ready >= (min ? min : 1);
}

size_t ldisc_read(struct ldisc *l, uint8_t *dst, size_t n, bool *line_done)
{
	bool canon = on(l, ICANON);
	size_t copied = 0;
	*line_done = false;
	/* One slot past n: a line that exactly fills the read takes its end
	 * of file with it, as on Linux, rather than leave it for a read of 0. */
	while (l->tail != l->line_start && (copied < n || (canon && (l->mark[l->tail % LDISC_SIZE] & END_OF_FILE)))) {
		uint32_t i = l->tail++ % LDISC_SIZE;
		if (!(l->mark[i] & END_OF_FILE))
			dst[copied++] = l->byte[i];
		if (canon && (l->mark[i] & LINE_END)) {
			*line_done = true;
			break;
		}
	}
	return copied;
}

size_t ldisc_pending(const struct ldisc *l)
{
	size_t n = 0;
	for (uint32_t i = l->tail; i != l->line_start; i++)
		n += !(l->mark[i % LDISC_SIZE] & END_OF_FILE);
	return n;
}

void ldisc_flush(struct ldisc *l)
{
	l->tail = l->line_start = l->head;
}

void ldisc_set_termios(struct ldisc *l, const struct termios *t)
{
	bool was_canonical = on(l, ICANON);
	l->termios = *t;
	if (was_canonical && !on(l, ICANON))
		l->line_start = l->head;
	else if (!was_canonical && on(l, ICANON))
		l->line_start = l->tail;
}
