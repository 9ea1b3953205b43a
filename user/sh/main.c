/*
 * sh: the shell of leftmost, an ordinary static Linux program.
 *
 *   sh                          commands from stdin
 *   sh FILE [ARG...]            a script, the ARGs as $1...
 *   sh -c TEXT [NAME [ARG...]]  TEXT, NAME as $0
 *
 * It reads (parse.c): commands and their words; quoting with '...', "..."
 * and \; comments; lists with ; & && || and newlines; pipelines a | b;
 * subshells ( list ); redirections [n]<word [n]>word [n]>>word [n]<&m
 * [n]>&m and [n]>&- (close), where n and m are one digit.
 *
 * It expands (expand.c): ~ at the start of a word; $NAME ${NAME} $? $$ $!
 * $0 $1..$9 ${10}... $# $@ $*. What an unquoted $ gives is split into
 * fields at blanks (space, tab and newline, there is no IFS), as POSIX
 * says; "$@" is a field per parameter. An unquoted * ? or [ makes a word
 * a pattern for file names; one that matches nothing stays as it is. Not
 * there: command substitution, arithmetic, ${NAME-word} and the like,
 * here-documents, if/while/for/case, functions and aliases.
 *
 * It runs (exec.c, jobs.c): NAME=value alone sets a shell variable, before
 * a command it is in that command's environment only, and before a
 * built-in it sets the variable (POSIX's rule for special built-ins). A
 * command without / is looked for in $PATH, /bin when PATH is unset; a
 * file that is no program (ENOEXEC) is run as a script by this shell. The
 * statuses: 127 not found, 126 not runnable, 128+n killed by signal n
 * (whose name is told, as bash does, but for SIGINT and SIGPIPE), 2 a
 * syntax error or a bad option. The built-ins (builtin.c, jobs.c): cd pwd
 * exit export unset history . source jobs fg bg wait true false :.
 *
 * Interactive (stdin and stderr are terminals): job control, line editing
 * with a history of 100 lines (edit.c), a syntax error costs only its
 * line, a foreground job killed by ^C the rest of its line, ^D or exit
 * ends (stopped jobs then get SIGHUP). The prompt is $PS1 as it is, or
 * "$ ", and goes with the line being edited to stderr, as in bash and
 * dash, so that redirecting stdout leaves the terminal alone (stdout is
 * flushed first).
 * Not interactive: plain lines, no prompt, a syntax error exits with 2.
 *
 * Limits and choices:
 *   - A line is at most MAX_LINE (4096) bytes; a longer one is refused
 *     whole with a message, as a syntax error is. NUL bytes are dropped.
 *     The TEXT of -c has no limit, and may hold newlines.
 *   - A command ends with its line: a quote or ( ) never spans lines,
 *     except in the TEXT of -c.
 *   - Standard input is read a byte at a time, so that a command it starts
 *     reads on from the next line, as POSIX wants.
 *   - Redirection targets and assignment values are expanded but neither
 *     split nor globbed.
 *   - A shell that is not interactive keeps its finished background jobs
 *     for `wait` to collect, as POSIX wants; an interactive one tells of
 *     them before the next prompt and forgets them.
 *   - The shell's own descriptors (files being read, copies kept while a
 *     built-in's redirections are in place) are close-on-exec and numbered
 *     from 10, out of the reach of redirections.
 *   - Out of memory, the shell exits with 2: it cannot go on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

bool interactive;
int last_status;
pid_t shell_pid;
pid_t last_background;

enum { LINE_END = -1, LINE_TOO_LONG = -2 };

struct reader {
	int fd;
	size_t pos, len;
	char buf[4096];
};

static int next_byte(struct reader *r)
{
	if (r->pos == r->len) {
		ssize_t n;
		while ((n = read(r->fd, r->buf, r->fd == 0 ? 1 : sizeof r->buf)) < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		r->pos = 0;
		r->len = n;
	}
	return (unsigned char)r->buf[r->pos++];
}

/* The next line, without its newline: its length, LINE_END, or
 * LINE_TOO_LONG once the whole of a long line is read. */
static int read_line(struct reader *r, char line[MAX_LINE + 1])
{
	size_t len = 0;
	bool too_long = false;
	int c;
	while ((c = next_byte(r)) >= 0 && c != '\n') {
		if (len == MAX_LINE)
			too_long = true;
		else if (c != '\0')
			line[len++] = c;
	}
	line[len] = '\0';
	if (too_long)
		return LINE_TOO_LONG;
	return c < 0 && len == 0 ? LINE_END : (int)len;
}

bool run_text(const char *text)
{
	bool ok;
	struct andor *list = parse(text, &ok);
	if (!ok) {
		last_status = 2;
		return false;
	}
	run_list(list);
	free_list(list);
	return true;
}

/* The lines of fd, each run in turn. A syntax error ends the shell if it
 * is not interactive, else the file (one being sourced). */
int run_file(int fd)
{
	struct reader r = { .fd = fd };
	char line[MAX_LINE + 1];
	int len;
	while ((len = read_line(&r, line)) != LINE_END) {
		jobs_notify();
		bool ok = len != LINE_TOO_LONG && run_text(line);
		if (len == LINE_TOO_LONG) {
			warn("line too long (the limit is %d bytes)", MAX_LINE);
			last_status = 2;
		}
		if (!ok && !interactive)
			sh_exit(2);
		if (!ok)
			return 2;
	}
	return last_status;
}

int open_high(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, FIRST_SHELL_FD);
	int error = errno;
	close(fd);
	errno = error;
	return high;
}

/* The script at path, with args ($1...) as its parameters. */
noreturn void run_script(const char *path, char **args)
{
	int fd = open_high(path);
	if (fd < 0) {
		warn("%s: %s", path, strerror(errno));
		exit(errno == ENOENT ? 127 : 126);
	}
	arg0 = path;
	params = args;
	for (nparams = 0; args[nparams]; nparams++)
		continue;
	sh_exit(run_file(fd));
}

noreturn void sh_exit(int status)
{
	if (interactive)
		jobs_hangup();
	exit(status);
}

static noreturn void usage(void)
{
	fprintf(stderr, "usage: sh [-c TEXT [NAME [ARG...]] | FILE [ARG...]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	extern char **environ;
	shell_pid = getpid();
	arg0 = argc > 0 ? argv[0] : "sh";
	var_import(environ);
	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3)
			usage();
		if (argc > 3) {
			arg0 = argv[3];
			params = argv + 4;
			nparams = argc - 4;
		}
		sh_exit(run_text(argv[2]) ? last_status : 2);
	}
	if (argc > 1 && argv[1][0] == '-')
		usage();
	if (argc > 1)
		run_script(argv[1], argv + 2);

	interactive = isatty(0) && isatty(2);
	if (!interactive)
		sh_exit(run_file(0));
	jobs_init();
	char line[MAX_LINE + 1];
	for (;;) {
		jobs_notify();
		fflush(stdout);
		const char *ps1 = var_get("PS1");
		if (!edit_line(ps1 ? ps1 : "$ ", line))
			break;
		history_add(line);
		run_text(line);
	}
	fputs("exit\n", stderr);
	sh_exit(last_status);
}
