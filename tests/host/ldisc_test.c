/* lib/ldisc.c: the terminal's line discipline, Linux's defaults and rules. */
#include "lib/ldisc.h"
#include "tests/host/test.h"

static struct ldisc ld;
static char screen[1024];
static size_t screen_len;
static int signals[8];
static int nr_signals;

static void to_screen(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n && screen_len < sizeof(screen) - 1; i++)
		screen[screen_len++] = s[i];
	screen[screen_len] = '\0';
}

static void fresh(void)
{
	ldisc_init(&ld, to_screen, NULL);
	screen_len = 0;
	screen[0] = '\0';
	nr_signals = 0;
}

static void type(const char *keys)
{
	for (; *keys; keys++) {
		int sig = ldisc_receive(&ld, (uint8_t)*keys);
		if (sig && nr_signals < 8)
			signals[nr_signals++] = sig;
	}
}

/* One read of up to n bytes, as a string. */
static const char *read_up_to(size_t n)
{
	static char got[LDISC_SIZE + 1];
	bool line_done;
	size_t len = ldisc_read(&ld, (uint8_t *)got, n, &line_done);
	got[len] = '\0';
	return got;
}

static void set_lflag(uint32_t off, uint32_t on)
{
	struct termios t = ld.termios;
	t.lflag = (t.lflag & ~off) | on;
	ldisc_set_termios(&ld, &t);
}

TEST(ldisc_a_line_is_readable_only_once_it_ends)
{
	fresh();
	type("hello");
	EXPECT(!ldisc_readable(&ld, 1));
	EXPECT_EQ_UINT(ldisc_pending(&ld), 0);
	type("\r");                                 /* Enter: ICRNL makes it a newline */
	EXPECT(ldisc_readable(&ld, 1));
	EXPECT_EQ_UINT(ldisc_pending(&ld), 6);
	EXPECT_EQ_STR(read_up_to(100), "hello\n");
	EXPECT_EQ_STR(screen, "hello\n");
	EXPECT(!ldisc_readable(&ld, 1));
}

TEST(ldisc_a_read_takes_one_line_at_a_time_and_a_short_read_leaves_the_rest)
{
	fresh();
	type("one\ntwo\n");
	EXPECT_EQ_STR(read_up_to(100), "one\n");
	EXPECT_EQ_STR(read_up_to(2), "tw");
	EXPECT_EQ_STR(read_up_to(100), "o\n");
}

TEST(ldisc_erase_kill_and_word_erase_edit_the_line_and_the_screen)
{
	fresh();
	type("abx\177c\n");
	EXPECT_EQ_STR(read_up_to(100), "abc\n");
	EXPECT_EQ_STR(screen, "abx\b \bc\n");
	fresh();
	type("junk\025ok\n");                       /* Ctrl-U */
	EXPECT_EQ_STR(read_up_to(100), "ok\n");
	EXPECT_EQ_STR(screen, "junk\b \b\b \b\b \b\b \bok\n");
	fresh();
	type("one two  \027three\n");               /* Ctrl-W: the blanks, then the word */
	EXPECT_EQ_STR(read_up_to(100), "one three\n");
	fresh();
	type("\177\177x\n");                        /* erasing nothing does nothing */
	EXPECT_EQ_STR(read_up_to(100), "x\n");
	EXPECT_EQ_STR(screen, "x\n");
}

TEST(ldisc_erasing_a_control_character_takes_back_its_two_columns)
{
	fresh();
	type("a\001\177\n");
	EXPECT_EQ_STR(screen, "a^A\b \b\b \b\n");
	EXPECT_EQ_STR(read_up_to(100), "a\n");
}

TEST(ldisc_end_of_file_hands_over_the_line_without_itself)
{
	fresh();
	type("ab\004");
	EXPECT(ldisc_readable(&ld, 1));
	EXPECT_EQ_UINT(ldisc_pending(&ld), 2);
	EXPECT_EQ_STR(read_up_to(100), "ab");
	EXPECT(!ldisc_readable(&ld, 1));            /* the next read waits: not an end of file */
	type("\004");
	EXPECT(ldisc_readable(&ld, 1));
	bool line_done;
	uint8_t buf[8];
	EXPECT_EQ_UINT(ldisc_read(&ld, buf, sizeof(buf), &line_done), 0);   /* read() returns 0 */
	EXPECT(line_done);
	EXPECT_EQ_STR(screen, "ab");                /* Ctrl-D is not echoed */
}

TEST(ldisc_a_line_that_fills_the_read_takes_its_end_of_file_along)
{
	fresh();
	type("ab\004");
	EXPECT_EQ_STR(read_up_to(2), "ab");
	EXPECT(!ldisc_readable(&ld, 1));
}

TEST(ldisc_interrupt_keys_flush_the_input_and_raise_signals)
{
	fresh();
	type("half a line\003");
	EXPECT_EQ_INT(nr_signals, 1);
	EXPECT_EQ_INT(signals[0], LDISC_INTERRUPT);
	EXPECT_EQ_UINT(ldisc_pending(&ld), 0);
	type("x\n");
	EXPECT_EQ_STR(read_up_to(100), "x\n");      /* the half line is gone */
	EXPECT_EQ_STR(screen, "half a line^Cx\n");
	type("\034\032");
	EXPECT_EQ_INT(nr_signals, 3);
	EXPECT_EQ_INT(signals[1], LDISC_QUIT);
	EXPECT_EQ_INT(signals[2], LDISC_SUSPEND);
}

TEST(ldisc_noflsh_keeps_the_input_and_no_isig_makes_ctrl_c_a_byte)
{
	fresh();
	set_lflag(0, NOFLSH);
	type("keep\003\n");
	EXPECT_EQ_INT(nr_signals, 1);
	EXPECT_EQ_STR(read_up_to(100), "keep\n");
	set_lflag(ISIG, 0);
	type("\003\n");
	EXPECT_EQ_INT(nr_signals, 1);
	EXPECT_EQ_STR(read_up_to(100), "\003\n");
}

TEST(ldisc_raw_mode_hands_over_each_byte_and_honours_vmin)
{
	fresh();
	set_lflag(ICANON | ECHO, 0);
	type("ab");
	EXPECT(ldisc_readable(&ld, 1));
	EXPECT(ldisc_readable(&ld, 2));
	EXPECT(!ldisc_readable(&ld, 3));
	type("\177\025");                           /* no editing: they are bytes */
	EXPECT_EQ_STR(read_up_to(100), "ab\177\025");
	EXPECT_EQ_STR(screen, "");                   /* no echo */
}

TEST(ldisc_leaving_canonical_mode_hands_over_the_line_being_typed)
{
	fresh();
	type("part");
	set_lflag(ICANON, 0);
	EXPECT_EQ_STR(read_up_to(100), "part");
	type("more");
	set_lflag(0, ICANON);                       /* what was unread is the line being typed again */
	EXPECT(!ldisc_readable(&ld, 1));
	type("\177\n");
	EXPECT_EQ_STR(read_up_to(100), "mor\n");
}

TEST(ldisc_literal_next_takes_a_key_as_a_byte)
{
	fresh();
	type("\026\003\026\177\n");                 /* Ctrl-V Ctrl-C, Ctrl-V DEL */
	EXPECT_EQ_INT(nr_signals, 0);
	EXPECT_EQ_STR(read_up_to(100), "\003\177\n");
	EXPECT_EQ_STR(screen, "^\b^C^\b^?\n");
}

TEST(ldisc_carriage_return_rules)
{
	fresh();
	struct termios t = ld.termios;
	t.iflag = IGNCR;
	ldisc_set_termios(&ld, &t);
	type("a\rb\n");
	EXPECT_EQ_STR(read_up_to(100), "ab\n");
	t.iflag = INLCR;                            /* a typed newline becomes a CR: no line end */
	ldisc_set_termios(&ld, &t);
	type("c\n");
	EXPECT(!ldisc_readable(&ld, 1));
}

TEST(ldisc_echonl_echoes_only_the_newline)
{
	fresh();
	set_lflag(ECHO, ECHONL);
	type("secret\n");
	EXPECT_EQ_STR(screen, "\n");
	EXPECT_EQ_STR(read_up_to(100), "secret\n");
}

TEST(ldisc_a_full_canonical_line_still_takes_its_newline)
{
	fresh();
	for (int i = 0; i < LDISC_SIZE + 10; i++)
		ldisc_receive(&ld, 'x');
	EXPECT(!ldisc_readable(&ld, 1));
	type("\n");
	EXPECT(ldisc_readable(&ld, 1));
	EXPECT_EQ_UINT(ldisc_pending(&ld), LDISC_SIZE);
	const char *line = read_up_to(LDISC_SIZE);
	EXPECT_EQ_UINT(strlen(line), LDISC_SIZE);
	EXPECT(line[LDISC_SIZE - 1] == '\n');
	type("after\n");                            /* and the ring goes on */
	EXPECT_EQ_STR(read_up_to(100), "after\n");
}

TEST(ldisc_reprint_shows_the_line_again)
{
	fresh();
	type("ab\022");
	EXPECT_EQ_STR(screen, "ab^R\nab");
}

TEST(ldisc_flow_control_keys_are_swallowed)
{
	fresh();
	type("a\021\023b\n");
	EXPECT_EQ_STR(read_up_to(100), "ab\n");
}
