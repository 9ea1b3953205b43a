/*
 * The line editor: the terminal without canonical mode, echo or signal
 * keys while a line is typed, every key read here and the line redrawn
 * with VT100 sequences (carriage return, erase to the end of the line,
 * cursor forward). A line wider than the terminal scrolls sideways.
 *
 *   characters        insert at the cursor (printable ASCII only)
 *   Backspace, ^H     erase before the cursor; Delete, ^D: under it
 *   Left/Right ^B ^F  move; Home/End or ^A ^E: to the start, the end
 *   ^U ^K ^W          erase before the cursor, after it, the word before
 *   Up/Down ^P ^N     walk the history
 *   ^L                clear the screen
 *   ^C                abandon the line; ^D on an empty line: end of input
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "sh.h"

#define HISTORY_SIZE 100
#define CONTROL(c) ((c) & 0x1f)

static char *history[HISTORY_SIZE];  /* oldest first */
static int history_len;
static int history_base;  /* the number of the oldest, minus 1 */

enum key { KEY_UP = 256, KEY_DOWN, KEY_RIGHT, KEY_LEFT, KEY_HOME, KEY_END, KEY_DELETE, KEY_NONE, KEY_EOF };

struct editor {
	char *line;        /* the caller's buffer, MAX_LINE + 1 bytes */
	size_t len, pos;   /* its length, the cursor */
	const char *prompt;
	size_t columns;
	int shown;         /* history[shown] is on the line, history_len: the new line */
	char draft[MAX_LINE + 1];  /* the new line, while the history is shown */
};

void history_add(const char *line)
{
	if (!line[strspn(line, " \t")])
		return;
	if (history_len > 0 && strcmp(history[history_len - 1], line) == 0)
		return;
	if (history_len == HISTORY_SIZE) {
		free(history[0]);
		memmove(history, history + 1, (HISTORY_SIZE - 1) * sizeof history[0]);
		history_len--;
		history_base++;
	}
	history[history_len++] = xstrdup(line);
}

void history_print(void)
{
	for (int i = 0; i < history_len; i++)
		printf("%5d  %s\n", history_base + i + 1, history[i]);
}

static int read_byte(void)
{
	unsigned char c;
	ssize_t n;
	while ((n = read(0, &c, 1)) < 0 && errno == EINTR)
		continue;
	return n == 1 ? c : KEY_EOF;
}

/* After ESC: [ or O, maybe digits and ;, then a letter or ~. */
static int read_escape(void)
{
	int c = read_byte();
	if (c != '[' && c != 'O')
		return KEY_NONE;
	int number = 0;
	while ((c = read_byte()) >= '0' && c <= ';')
		number = c <= '9' ? number * 10 + c - '0' : 0;
	switch (c) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return KEY_RIGHT;
	case 'D': return KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	case '~':
		return number == 1 || number == 7 ? KEY_HOME : number == 4 || number == 8 ? KEY_END :
		       number == 3 ? KEY_DELETE : KEY_NONE;
	default: return c == KEY_EOF ? KEY_EOF : KEY_NONE;
	}
}

static int read_key(void)
{
	int c = read_byte();
	return c == 27 ? read_escape() : c;
}

/* The prompt and as much of the line as fits, the cursor kept in view. */
static void refresh(struct editor *ed)
{
	size_t plen = strlen(ed->prompt);
	size_t room = ed->columns > plen + 1 ? ed->columns - plen - 1 : 1;
	size_t first = ed->pos > room ? ed->pos - room : 0;
	size_t shown = ed->len - first < room ? ed->len - first : room;
	struct buf out = { 0 };
	buf_adds(&out, "\r");
	buf_adds(&out, ed->prompt);
	for (size_t i = 0; i < shown; i++)
		buf_add(&out, ed->line[first + i]);
	buf_adds(&out, "\x1b[K\r");
	char move[32];
	if (plen + ed->pos - first > 0) {
		snprintf(move, sizeof move, "\x1b[%zuC", plen + ed->pos - first);
		buf_adds(&out, move);
	}
	write(2, out.s, out.len);
	free(out.s);
}

/* A key typed at the end of a line that still fits needs only its echo: on
 * a serial console a redraw per key would be a whole line per key. */
static bool just_appended(const struct editor *ed, size_t len_before, int key)
{
	return key >= ' ' && key < 127 && ed->len == len_before + 1 && ed->pos == ed->len &&
	       strlen(ed->prompt) + ed->len + 1 < ed->columns;
}

static void set_line(struct editor *ed, const char *text)
{
	ed->len = ed->pos = strlen(text);
	memcpy(ed->line, text, ed->len + 1);
}

static void show_history(struct editor *ed, int index)
{
	if (index < 0 || index > history_len)
		return;
	if (ed->shown == history_len)
		memcpy(ed->draft, ed->line, ed->len + 1);
	ed->shown = index;
	set_line(ed, index == history_len ? ed->draft : history[index]);
}

static void erase(struct editor *ed, size_t from, size_t to)
{
	memmove(ed->line + from, ed->line + to, ed->len - to + 1);
	ed->len -= to - from;
	ed->pos = from;
}

static void insert(struct editor *ed, char c)
{
	if (ed->len == MAX_LINE) {
		write(2, "\a", 1);  /* full: the line length limit */
		return;
	}
	memmove(ed->line + ed->pos + 1, ed->line + ed->pos, ed->len - ed->pos + 1);
	ed->line[ed->pos++] = c;
	ed->len++;
}

static size_t word_start(const struct editor *ed)
{
	size_t p = ed->pos;
	while (p > 0 && ed->line[p - 1] == ' ')
		p--;
	while (p > 0 && ed->line[p - 1] != ' ')
		p--;
	return p;
}

/* Acts on a key: false when the line is finished. */
static bool edit_key(struct editor *ed, int key)
{
	switch (key) {
	case '\r': case '\n': return false;
	case CONTROL('C'):
		write(2, "^C", 2);
		ed->line[ed->len = 0] = '\0';
		return false;
	case KEY_EOF: return false;
	case CONTROL('D'): case KEY_DELETE:
		if (key == CONTROL('D') && ed->len == 0)
			return false;  /* the end of input */
		if (ed->pos < ed->len)
			erase(ed, ed->pos, ed->pos + 1);
		break;
	case 127: case CONTROL('H'):
		if (ed->pos > 0)
			erase(ed, ed->pos - 1, ed->pos);
		break;
	case KEY_LEFT: case CONTROL('B'): ed->pos -= ed->pos > 0; break;
	case KEY_RIGHT: case CONTROL('F'): ed->pos += ed->pos < ed->len; break;
	case KEY_HOME: case CONTROL('A'): ed->pos = 0; break;
	case KEY_END: case CONTROL('E'): ed->pos = ed->len; break;
	case CONTROL('U'): erase(ed, 0, ed->pos); break;
	case CONTROL('K'): ed->line[ed->len = ed->pos] = '\0'; break;
	case CONTROL('W'): erase(ed, word_start(ed), ed->pos); break;
	case KEY_UP: case CONTROL('P'): show_history(ed, ed->shown - 1); break;
	case KEY_DOWN: case CONTROL('N'): show_history(ed, ed->shown + 1); break;
	case CONTROL('L'): write(2, "\x1b[H\x1b[2J", 7); break;
	default:
		if (key >= ' ' && key < 127)
			insert(ed, key);
	}
	return true;
}

/* Reads a line into `line`, editing it on the terminal. False at the end
 * of input: ^D on an empty line. */
bool edit_line(const char *prompt, char line[MAX_LINE + 1])
{
	struct termios cooked, raw;
	if (tcgetattr(0, &cooked) < 0)
		return false;
	raw = cooked;
	raw.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);  /* ^C ^Z ^V are keys here */
	raw.c_iflag &= ~(IXON | ICRNL);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(0, TCSADRAIN, &raw);

	struct winsize ws;
	struct editor ed = { .line = line, .prompt = prompt, .shown = history_len, .columns = 80 };
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		ed.columns = ws.ws_col;
	line[0] = '\0';
	int key;
	refresh(&ed);
	for (;;) {
		size_t len_before = ed.len;
		key = read_key();
		if (!edit_key(&ed, key))
			break;
		if (just_appended(&ed, len_before, key))
			write(2, &ed.line[ed.len - 1], 1);
		else
			refresh(&ed);
	}
	bool end = key == KEY_EOF || key == CONTROL('D');
	if (!end)
		write(2, "\n", 1);
	tcsetattr(0, TCSADRAIN, &cooked);
	return !end;
}
