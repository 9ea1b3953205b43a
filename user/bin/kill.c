/*
 * kill: send a signal to processes.
 *
 *   kill [-s SIGNAL | -SIGNAL] pid...     SIGNAL a name (TERM, SIGTERM, term) or a number
 *   kill -l [SIGNAL]                      the signals' names; or one's name, or number
 *
 * The signal is SIGTERM unless one is given; 0 only checks that the
 * processes are there. A negative pid is a process group (-1: every
 * process kill(2) may signal); after a signal option it needs nothing
 * more (kill -9 -123), before one it needs "--" (kill -- -123). kill -l
 * also names the signal that ended a process from its exit status
 * (kill -l 137: KILL), as shells say 128 plus its number.
 *
 * Every pid is tried, and one that fails says why
 * ("kill: (123) - No such process"). Exit status 1 if any failed, else
 * 0; a usage error also exits 1, the usage on stderr, as procps's and
 * util-linux's kill do.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const names[] = {
	[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL", [SIGTRAP] = "TRAP",
	[SIGABRT] = "ABRT", [SIGBUS] = "BUS", [SIGFPE] = "FPE", [SIGKILL] = "KILL", [SIGUSR1] = "USR1",
	[SIGSEGV] = "SEGV", [SIGUSR2] = "USR2", [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM",
	[SIGSTKFLT] = "STKFLT", [SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
	[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU", [SIGXFSZ] = "XFSZ",
	[SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH", [SIGPOLL] = "POLL", [SIGPWR] = "PWR",
	[SIGSYS] = "SYS",
};
enum { NNAMES = sizeof names / sizeof names[0] };

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: kill [-s SIGNAL | -SIGNAL] pid...\n"
		     "       kill -l [SIGNAL]\n"
		     "Sends SIGNAL (TERM unless given; a name or a number) to each pid;\n"
		     "a negative pid is a process group: kill -- -PGID.\n"
		     "  -l  the signals' names, or one's name, or number\n"
		     "  -h  this help\n");
	exit(status);
}

/* A whole decimal number: 0, or -1 if text is not one. */
static int parse_number(const char *text, long *number)
{
	char *end;
	errno = 0;
	*number = strtol(text, &end, 10);
	return end == text || *end || errno ? -1 : 0;
}

/* The number of a signal given as a number, or as a name with or
 * without SIG, in any case: -1 if there is none. */
static int signal_number(const char *text)
{
	long number;
	if (isdigit((unsigned char)text[0]))
		return parse_number(text, &number) == 0 && number < NSIG ? (int)number : -1;
	if (strncasecmp(text, "SIG", 3) == 0)
		text += 3;
	for (int i = 1; i < NNAMES; i++)
		if (names[i] && strcasecmp(text, names[i]) == 0)
			return i;
	return -1;
}

static int list_all(void)
{
	int column = 0;
	for (int i = 1; i < NNAMES; i++) {
		if (column + strlen(names[i]) >= 72) {
			printf("\n");
			column = 0;
		}
		column += printf("%s%s", column ? " " : "", names[i]);
	}
	printf("\n");
	return 0;
}

/* kill -l SIGNAL: a number's name (an exit status's too), a name's number. */
static int list_one(const char *text)
{
	long number;
	if (parse_number(text, &number) == 0) {
		if (number > 128)
			number -= 128;          /* an exit status: 128 + the signal */
		if (number > 0 && number < NNAMES) {
			printf("%s\n", names[number]);
			return 0;
		}
	} else if ((number = signal_number(text)) > 0) {
		printf("%ld\n", number);
		return 0;
	}
	fprintf(stderr, "kill: unknown signal: %s\n", text);
	return 1;
}

static int send(const char *text, int sig)
{
	long pid;
	if (parse_number(text, &pid) != 0 || pid != (pid_t)pid) {
		fprintf(stderr, "kill: failed to parse argument: '%s'\n", text);
		return 1;
	}
	if (kill(pid, sig) != 0) {
		fprintf(stderr, "kill: (%ld) - %s\n", pid, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, sig_given = 0, i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(arg, "-l") == 0) {
			if (i + 2 < argc)
				usage(stderr, 1);
			return i + 1 < argc ? list_one(argv[i + 1]) : list_all();
		}
		if (strcmp(arg, "-h") == 0)
			usage(stdout, 0);
		if (sig_given)
			break;                  /* kill -9 -123: a process group */
		const char *name = arg + 1;
		if (strcmp(arg, "-s") == 0) {
			if (++i == argc)
				usage(stderr, 1);
			name = argv[i];
		}
		sig = signal_number(name);
		if (sig < 0) {
			fprintf(stderr, "kill: unknown signal: %s\n", name);
			usage(stderr, 1);
		}
		sig_given = 1;
	}
	if (i == argc)
		usage(stderr, 1);
	int failed = 0;
	for (; i < argc; i++)
		failed |= send(argv[i], sig);
	return failed;
}
