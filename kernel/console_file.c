/*
 * The console as a file, /dev/console's kind: a terminal, as far as
 * programs can tell. Writes go to the serial console raw (console_write():
 * no log prefix). There is no keyboard for programs yet (the serial port's
 * input is the debug keys'), so a read finds the end of the input at once.
 */
#include "kernel/console_file.h"
#include "kernel/file.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "arch/x86_64/user.h"
#include "lib/util.h"

/* A write's bytes are gathered so that they reach the console in as few
 * pieces as possible: each piece goes out whole, and another program's
 * output can only come between pieces. musl's printf is one writev of a
 * few short buffers: one piece. */
static long console_file_write(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	(void)f;
	(void)pos;
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

static long console_file_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)f;
	(void)to;
	(void)pos;
	return 0;
}

#define TCGETS     0x5401
#define TIOCGWINSZ 0x5413

struct winsize {
	uint16_t rows, cols, xpixels, ypixels;
};

/* Linux's struct termios, as TCGETS fills it in. */
struct termios {
	uint32_t iflag, oflag, cflag, lflag;
	uint8_t line;
	uint8_t cc[19];
};

/* A Linux console's settings after boot: canonical input with echo, and
 * output turning "\n" into "\r\n". */
enum {
	ICRNL = 0000400, IXON = 0002000,
	OPOST = 0000001, ONLCR = 0000004,
	B38400 = 0000017, CS8 = 0000060, CREAD = 0000200, HUPCL = 0002000,
	ISIG = 0000001, ICANON = 0000002, ECHO = 0000010, ECHOE = 0000020, ECHOK = 0000040,
	ECHOCTL = 0001000, ECHOKE = 0004000, IEXTEN = 0100000,
};
enum { VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN, VSWTC, VSTART, VSTOP, VSUSP, VEOL,
       VREPRINT, VDISCARD, VWERASE, VLNEXT, VEOL2 };
#define CTRL(c) ((c) & 037)

static const struct termios console_termios = {
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

/* C libraries ask whether a descriptor is a terminal this way (musl with
 * TIOCGWINSZ, glibc with TCGETS), and then buffer its output by lines. */
static long console_file_ioctl(struct file *f, unsigned cmd, uint64_t arg)
{
	(void)f;
	static const struct winsize size = { .rows = 24, .cols = 80 };
	switch (cmd) {
	case TIOCGWINSZ:
		return copy_to_user((void *)arg, &size, sizeof(size));
	case TCGETS:
		return copy_to_user((void *)arg, &console_termios, sizeof(console_termios));
	default:
		return -ENOTTY;
	}
}

/* What it is, the inode /dev/console says (kernel/fs.c). */
const struct file_ops console_file_ops = {
	.read = console_file_read,
	.write = console_file_write,
	.ioctl = console_file_ioctl,
};
