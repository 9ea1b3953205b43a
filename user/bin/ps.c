/*
 * ps: the processes, as the scheduler sees them.
 *
 *   ps [-e | -A] [-L] [-p pidlist] [-o column,...]
 *
 * One line per process, sorted by pid, with the columns of procps's
 *   ps -e -o pid,cls,pri,ni,psr,s,%cpu,time,cmd
 * its policy (CLS: TS, B and IDL are the fair class's, FF and RR the
 * real-time ones), priority (PRI, the higher the more favoured: nice 19 is
 * 0, nice -20 is 39, real-time priority 1 is 41), nice level, the CPU it
 * last ran on (PSR), state, share of a CPU over its life and CPU time.
 *
 * Every process is listed, not only the terminal's as procps does without
 * -e: a student wants to see them all (-e and -A are accepted, and change
 * nothing). -L lists each thread on a line of its own, after its pid the
 * thread's TID; -p only the processes whose pids it lists (separated by
 * commas or spaces; -p may be repeated); -o chooses the columns, among
 * those of columns[] below, by their names or procps's other ones.
 *
 * Only /proc/PID/stat, /proc/PID/task/TID/stat, /proc/PID/cmdline and
 * /proc/uptime are read. When the output is a terminal, a line is cut at
 * its width, as procps does. Exit status as procps's: 0; 1 if no process
 * was listed, or on a usage error, printed with the usage.
 */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/proc.h"

static double uptime;            /* seconds since boot, when ps started */

typedef void show_fn(char *out, size_t size, const struct proc_task *task);

static int is_fair(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

static int is_realtime(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static void show_pid(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%d", task->pid);
}

static void show_tid(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%d", task->stat.id);
}

static void show_ppid(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%d", task->stat.ppid);
}

static void show_cls(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%s", proc_policy_name(task->stat.policy));
}

/* /proc's priority is the kernel's, lower first (fair tasks 20 + nice,
 * real-time ones -1 - rt_priority); procps turns it round. */
static void show_pri(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%ld", 39 - task->stat.priority);
}

/* A nice level means something to the fair classes only. */
static void show_ni(char *out, size_t size, const struct proc_task *task)
{
	if (is_fair(task->stat.policy))
		snprintf(out, size, "%ld", task->stat.nice);
	else
		snprintf(out, size, "-");
}

static void show_rtprio(char *out, size_t size, const struct proc_task *task)
{
	if (is_realtime(task->stat.policy))
		snprintf(out, size, "%d", task->stat.rt_priority);
	else
		snprintf(out, size, "-");
}

static void show_psr(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%d", task->stat.processor);
}

static void show_state(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%c", task->stat.state);
}

/* As procps: the CPU time over the time since the task started. */
static void show_pcpu(char *out, size_t size, const struct proc_task *task)
{
	double started = (double)task->stat.starttime / sysconf(_SC_CLK_TCK);
	snprintf(out, size, "%.1f", proc_cpu_percent(task->stat.utime + task->stat.stime, uptime - started));
}

static void show_time(char *out, size_t size, const struct proc_task *task)
{
	proc_format_time(out, size, task->stat.utime + task->stat.stime);
}

static void show_nlwp(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%ld", task->stat.num_threads);
}

static void show_comm(char *out, size_t size, const struct proc_task *task)
{
	snprintf(out, size, "%s", task->stat.comm);
}

/* The arguments, or [comm] for a task that has none (a kernel thread, a zombie). */
static void show_cmd(char *out, size_t size, const struct proc_task *task)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/cmdline", task->pid);
	ssize_t len = proc_read_file(path, out, size);
	while (len > 0 && out[len - 1] == '\0')
		len--;
	if (len <= 0) {
		snprintf(out, size, "[%s]", task->stat.comm);
		return;
	}
	proc_printable(out, len);
	out[len] = '\0';
}

struct column {
	const char *name, *other_name;    /* as -o takes it */
	const char *header;
	int width;                        /* negative: aligned left */
	show_fn *show;
};

static const struct column columns[] = {
	{ "pid", NULL, "PID", 5, show_pid },
	{ "tid", "lwp", "TID", 5, show_tid },
	{ "ppid", NULL, "PPID", 5, show_ppid },
	{ "cls", "class", "CLS", 3, show_cls },
	{ "pri", NULL, "PRI", 3, show_pri },
	{ "ni", "nice", "NI", 3, show_ni },
	{ "rtprio", NULL, "RTPRIO", 6, show_rtprio },
	{ "psr", NULL, "PSR", 3, show_psr },
	{ "s", "state", "S", 1, show_state },
	{ "%cpu", "pcpu", "%CPU", 4, show_pcpu },
	{ "time", "cputime", "TIME", 8, show_time },
	{ "nlwp", "thcount", "NLWP", 4, show_nlwp },
	{ "comm", "ucomm", "COMMAND", -15, show_comm },
	{ "cmd", "args", "CMD", -27, show_cmd },
};
enum { NCOLUMNS = sizeof columns / sizeof columns[0], MAX_CHOSEN = 32 };

static const struct column *chosen[MAX_CHOSEN];
static int nchosen;

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: ps [-e | -A] [-L] [-p pidlist] [-o column,...]\n"
		     "Lists every process (-e and -A change nothing).\n"
		     "  -L          a line per thread, with its TID\n"
		     "  -p pidlist  only these pids (separated by commas)\n"
		     "  -o columns  these columns (separated by commas), among:\n             ");
	for (int i = 0; i < NCOLUMNS; i++)
		fprintf(out, " %s", columns[i].name);
	fprintf(out, "\n  -h          this help\n");
	exit(status);
}

static void usage_error(const char *message, const char *what)
{
	fprintf(stderr, "ps: %s: %s\n", message, what);
	usage(stderr, 1);
}

static const struct column *find_column(const char *name)
{
	for (int i = 0; i < NCOLUMNS; i++)
		if (strcmp(name, columns[i].name) == 0 ||
		    (columns[i].other_name && strcmp(name, columns[i].other_name) == 0))
			return &columns[i];
	return NULL;
}

static void choose(const char *name)
{
	const struct column *column = find_column(name);
	if (!column)
		usage_error("unknown column", name);
	if (nchosen == MAX_CHOSEN)
		usage_error("too many columns", name);
	chosen[nchosen++] = column;
}

static pid_t *wanted;            /* -p's pids */
static int nwanted;

static void want(const char *word)
{
	char *end;
	long pid = strtol(word, &end, 10);
	if (*end || pid <= 0 || pid != (pid_t)pid)
		usage_error("process ID list syntax error", word);
	pid_t *bigger = realloc(wanted, (nwanted + 1) * sizeof *wanted);
	if (!bigger) {
		perror("ps");
		exit(1);
	}
	wanted = bigger;
	wanted[nwanted++] = pid;
}

static int is_wanted(pid_t pid)
{
	if (!nwanted)
		return 1;
	for (int i = 0; i < nwanted; i++)
		if (wanted[i] == pid)
			return 1;
	return 0;
}

/* Calls fn on each word of a list separated by commas or spaces. */
static void for_each_word(char *list, void (*fn)(const char *word))
{
	char *save;
	for (char *word = strtok_r(list, ", ", &save); word; word = strtok_r(NULL, ", ", &save))
		fn(word);
}

/* Prints a line of cells, the last one unpadded, cut at width if not 0. */
static void print_line(const char *const cells[], size_t width)
{
	char line[8192];
	size_t len = 0;
	for (int i = 0; i < nchosen && len < sizeof line; i++) {
		int last = i == nchosen - 1;
		len += snprintf(line + len, sizeof line - len, "%s%*s", i ? " " : "",
				last ? 0 : chosen[i]->width, cells[i]);
	}
	if (len >= sizeof line)
		len = sizeof line - 1;
	if (width && len > width)
		len = width;
	printf("%.*s\n", (int)len, line);
}

static void print_task(const struct proc_task *task, size_t width)
{
	static char text[MAX_CHOSEN][4096];
	const char *cells[MAX_CHOSEN];
	for (int i = 0; i < nchosen; i++) {
		chosen[i]->show(text[i], sizeof text[i], task);
		cells[i] = text[i];
	}
	print_line(cells, width);
}

static void choose_default(int threads)
{
	static const char *const names[] = { "pid", "tid", "cls", "pri", "ni", "psr", "s", "%cpu", "time", "cmd" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (threads || strcmp(names[i], "tid") != 0)
			choose(names[i]);
}

int main(int argc, char **argv)
{
	int threads = 0, opt;
	while ((opt = getopt(argc, argv, "eALp:o:h")) != -1) {
		switch (opt) {
		case 'e':
		case 'A':
			break;
		case 'L':
			threads = 1;
			break;
		case 'p':
			for_each_word(optarg, want);
			break;
		case 'o':
			for_each_word(optarg, choose);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 1);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument", argv[optind]);
	if (!nchosen)
		choose_default(threads);

	int screen_rows, screen_columns;
	size_t width = proc_terminal_size(STDOUT_FILENO, &screen_rows, &screen_columns) ? (size_t)screen_columns : 0;
	uptime = proc_uptime();
	struct proc_task *tasks;
	int ntasks = proc_read_tasks(threads, &tasks);
	if (ntasks < 0) {
		perror("ps: /proc");
		return 1;
	}

	const char *headers[MAX_CHOSEN];
	for (int i = 0; i < nchosen; i++)
		headers[i] = chosen[i]->header;
	print_line(headers, width);
	int listed = 0;
	for (int i = 0; i < ntasks; i++) {
		if (is_wanted(tasks[i].pid)) {
			print_task(&tasks[i], width);
			listed++;
		}
	}
	free(tasks);
	return listed ? 0 : 1;
}
