/*
 * The terminal, case by case, compared line for line with the same binary
 * on the host's Linux (tests/user/cases.h): lines and their editing, end
 * of file, the keyboard's signals, job control, raw mode and the settings.
 *
 * Someone types at it: tests/user/tty.keys says what, after which prompt
 * ("ready for ..."). On leftmost the keys reach the serial console; on
 * Linux a pseudo-terminal, whose session leader this program then is, as
 * it is on leftmost (tools/typist.py).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define CASES_NAME "tty"
#include "cases.h"

static void prompt(const char *what)
{
	printf("tty: ready for %s\n", what);
}

/* A read's result, its bytes with C escapes, on a line of its own: after
 * an echo that ends none (^D, ^C), a newline first. */
static void show_read_after(const char *what, size_t n, int after_echo)
{
	char buf[256];
	ssize_t got = read(0, buf, n);
	if (after_echo)
		printf("\n");
	if (got < 0) {
		show(what, -1);
		return;
	}
	printf("tty: %s = %zd \"", what, got);
	for (ssize_t i = 0; i < got; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == '\n')
			printf("\\n");
		else if (c < ' ' || c >= 127)
			printf("\\%03o", c);
		else
			printf("%c", c);
	}
	printf("\"\n");
}

static void show_read(const char *what, size_t n)
{
	show_read_after(what, n, 0);
}

static volatile sig_atomic_t caught[32];

static void count(int sig)
{
	caught[sig]++;
}

static void handle(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = count, .sa_flags = flags };
	sigaction(sig, &sa, NULL);
}

static void lines(void)
{
	prompt("a line");
	show_read("read a line", 100);
	prompt("erase");
	show_read("read a line typed with a mistake erased", 100);
	prompt("kill");
	show_read("read a line typed after ^U", 100);
	prompt("word erase");
	show_read("read a line with a word erased", 100);
	prompt("a short read");
	show_read("read 3 bytes of a line", 3);
	show_read("read the rest", 100);
	prompt("end of file");
	show_read("read at ^D", 100);
	prompt("a line ended by ^D");
	show_read_after("read a line ended by ^D", 100, 1);
}

static void polling(void)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	show("poll, nothing typed", poll(&pfd, 1, 0));
	prompt("typing while I poll");
	show("poll for a line", poll(&pfd, 1, 10000));
	printf("tty: revents = 0x%x\n", pfd.revents);
	int pending = -1;
	show("ioctl FIONREAD", ioctl(0, FIONREAD, &pending));
	printf("tty: bytes waiting = %d\n", pending);
	show_read("read them", 100);
}

static void keyboard_signals(void)
{
	handle(SIGINT, SA_RESTART);
	handle(SIGQUIT, SA_RESTART);
	prompt("^C in the middle of a line");
	show_read("read after ^C", 100);
	printf("tty: SIGINT caught %d time(s)\n", caught[SIGINT]);
	prompt("^\\");
	show_read("read after ^\\", 100);
	printf("tty: SIGQUIT caught %d time(s)\n", caught[SIGQUIT]);
	handle(SIGINT, 0);
	prompt("^C while I read");
	show_read_after("read interrupted by ^C", 100, 1);
	printf("tty: SIGINT caught %d time(s)\n", caught[SIGINT]);
}

/* A child in a process group of its own (the background, unless the
 * parent hands it the terminal), told to go on through a pipe. */
static pid_t child_in_own_group(int go[2])
{
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		char c;
		read(go[0], &c, 1);
		return 0;
	}
	setpgid(pid, pid);
	return pid;
}

static void let_go(int go[2])
{
	write(go[1], "g", 1);
	close(go[0]);
	close(go[1]);
}

/* How a child stopped or ended (then it is killed, and gone). After an
 * echoed key the line is begun: a newline first. */
static void show_stop(const char *what, pid_t pid, int after_echo)
{
	int status;
	pid_t got = waitpid(pid, &status, WUNTRACED);
	if (after_echo)
		printf("\n");
	if (got != pid)
		printf("tty: %s: waitpid failed\n", what);
	else if (WIFSTOPPED(status))
		printf("tty: %s: stopped by signal %d\n", what, WSTOPSIG(status));
	else if (WIFSIGNALED(status))
		printf("tty: %s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf("tty: %s: status 0x%x\n", what, status);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

static void job_control(void)
{
	yes("tcgetpgrp is my group", tcgetpgrp(0) == getpgrp());
	yes("tcgetsid is my session", tcgetsid(0) == getsid(0));
	show("tcsetpgrp to group -1", tcsetpgrp(0, -1));
	show("tcsetpgrp to a group nobody is in", tcsetpgrp(0, 0x3ffffff0));
	int p[2];
	pipe(p);
	show("tcgetpgrp of a pipe", tcgetpgrp(p[0]));
	struct termios t;
	show("tcgetattr of a pipe", tcgetattr(p[0], &t));
	close(p[0]);
	close(p[1]);

	int ready[2];
	pipe(ready);
	pid_t pid = fork();
	if (pid == 0) {
		setsid();
		write(ready[1], "r", 1);
		pause();
		_exit(0);
	}
	char c;
	read(ready[0], &c, 1);
	close(ready[0]);
	close(ready[1]);
	show("tcsetpgrp to another session's group", tcsetpgrp(0, pid));
	kill(pid, SIGKILL);
	show_status("that child", pid);

	int go[2];
	pid = child_in_own_group(go);
	if (pid == 0) {
		read(0, &c, 1);
		_exit(0);
	}
	let_go(go);
	show_stop("a background reader", pid, 0);

	pid = child_in_own_group(go);
	if (pid == 0) {
		signal(SIGTTIN, SIG_IGN);
		show("a background read with SIGTTIN ignored", read(0, &c, 1));
		show("a background write", write(1, "tty: a background write goes out\n", 33));
		_exit(0);
	}
	let_go(go);
	show_status("that child", pid);

	pid = child_in_own_group(go);
	if (pid == 0) {
		tcgetattr(0, &t);
		tcsetattr(0, TCSANOW, &t);
		_exit(0);
	}
	let_go(go);
	show_stop("a background tcsetattr", pid, 0);

	/* The terminal handed to a child, then taken back, as a shell does:
	 * a background group's tcsetpgrp would stop it, so SIGTTOU is ignored. */
	signal(SIGTTOU, SIG_IGN);
	const char *keys[] = { "^Z", "^C to the foreground" };
	for (int i = 0; i < 2; i++) {
		pid = child_in_own_group(go);
		if (pid == 0) {
			signal(SIGINT, SIG_DFL);
			prompt(keys[i]);
			read(0, &c, 1);
			_exit(0);
		}
		show("tcsetpgrp to the child", tcsetpgrp(0, pid));
		let_go(go);
		show_stop("the foreground child", pid, 1);
		show("tcsetpgrp back", tcsetpgrp(0, getpgrp()));
		yes("in the foreground again", tcgetpgrp(0) == getpgrp());
	}
	signal(SIGTTOU, SIG_DFL);
	printf("tty: SIGINT caught %d time(s) in all\n", caught[SIGINT]);
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void raw_mode(const struct termios *cooked)
{
	struct termios raw = *cooked;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
	raw.c_iflag &= ~(tcflag_t)(ICRNL | IXON);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	show("tcsetattr raw", tcsetattr(0, TCSANOW, &raw));
	prompt("raw keys");
	char buf[16];
	size_t got = 0;
	while (got < 5) {
		ssize_t n = read(0, buf + got, sizeof(buf) - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	printf("tty: raw keys = %zu:", got);
	for (size_t i = 0; i < got; i++)
		printf(" %d", buf[i]);
	printf("\n");

	raw.c_cc[VMIN] = 3;
	tcsetattr(0, TCSANOW, &raw);
	prompt("three keys");
	show_read("read with VMIN 3", 10);

	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 3;
	tcsetattr(0, TCSANOW, &raw);
	double start = seconds();
	show_read("read with VMIN 0, VTIME 3, nothing typed", 10);
	yes("it waited 0.3 s", seconds() - start >= 0.25);
	raw.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &raw);
	show_read("read with VMIN 0, VTIME 0", 10);
	show("tcsetattr cooked", tcsetattr(0, TCSANOW, cooked));
}

static void settings(const struct termios *cooked)
{
	int flags = fcntl(0, F_GETFL);
	fcntl(0, F_SETFL, flags | O_NONBLOCK);
	show_read("a non-blocking read, nothing typed", 10);
	fcntl(0, F_SETFL, flags);

	prompt("junk to flush");
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	show("poll for it", poll(&pfd, 1, 10000));
	show("tcsetattr TCSAFLUSH", tcsetattr(0, TCSAFLUSH, cooked));
	int pending = -1;
	ioctl(0, FIONREAD, &pending);
	printf("tty: bytes waiting after the flush = %d\n", pending);
	show("tcflush with a bad queue", tcflush(0, 7));

	struct termios quiet = *cooked;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(0, TCSANOW, &quiet);
	prompt("a secret");
	show_read("read a line not echoed", 100);
	tcsetattr(0, TCSANOW, cooked);

	handle(SIGWINCH, SA_RESTART);
	struct winsize ws = { .ws_row = 30, .ws_col = 100 };
	show("ioctl TIOCSWINSZ 30x100", ioctl(0, TIOCSWINSZ, &ws));
	memset(&ws, 0, sizeof(ws));
	show("ioctl TIOCGWINSZ", ioctl(0, TIOCGWINSZ, &ws));
	printf("tty: size %dx%d, SIGWINCH caught %d time(s)\n", ws.ws_row, ws.ws_col, caught[SIGWINCH]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	struct termios cooked;
	yes("isatty(0)", isatty(0));
	show("tcgetattr", tcgetattr(0, &cooked));
	printf("tty: iflag 0%o oflag 0%o lflag 0%o\n", cooked.c_iflag, cooked.c_oflag, cooked.c_lflag);
	printf("tty: keys intr %d quit %d erase %d kill %d eof %d susp %d werase %d lnext %d min %d time %d\n",
	       cooked.c_cc[VINTR], cooked.c_cc[VQUIT], cooked.c_cc[VERASE], cooked.c_cc[VKILL],
	       cooked.c_cc[VEOF], cooked.c_cc[VSUSP], cooked.c_cc[VWERASE], cooked.c_cc[VLNEXT],
	       cooked.c_cc[VMIN], cooked.c_cc[VTIME]);
	lines();
	polling();
	keyboard_signals();
	job_control();
	raw_mode(&cooked);
	settings(&cooked);
	printf("tty: done\n");
	return 0;
}
