/*
 * top: which tasks use the CPUs, refreshed every few seconds.
 *
 *   top [-b] [-H] [-d seconds] [-n frames]
 *
 * Each frame has a header: the time, how long the machine has been up and
 * its load average; how many tasks run, sleep, are stopped or zombies; a
 * line per CPU with its shares of time in ring 3 (us), in the kernel (sy,
 * with the interrupts), in ring 3 at a positive nice level (ni) and idle
 * (id, with the waits for I/O); the memory. Then the tasks, the busiest
 * first: their share of a CPU since the frame before (so a task with two
 * busy threads shows 200%), their CPU time as minutes:seconds.hundredths
 * (TIME+) and the CPU they last ran on (P). The first frame has nothing
 * before it: it shows each task's share since it started, and each CPU's
 * since boot.
 *
 * On a terminal, top redraws the screen in place with VT100 sequences,
 * every -d seconds (1 by default; fractions allowed), until q or Ctrl-C
 * (or -n frames). It reads the keys without waiting for a line (the
 * terminal's settings are put back when it ends, also on SIGINT, SIGTERM
 * and SIGHUP) and draws no more rows than the terminal has. With -b, or
 * when the input or output is no terminal, it writes the frames one after
 * another, every task of each, for a pipe or a test. -H shows threads
 * instead of processes.
 *
 * Only /proc/stat, /proc/uptime, /proc/loadavg, /proc/meminfo and the
 * tasks' stat files are read. A bad option prints the usage and exits 1
 * (procps-ng 4.0.2's top exits 0 then; a script wants to know).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "../lib/proc.h"
#include "../lib/signals.h"

enum { MAX_CPUS = 1024, MAX_DELAY = 24 * 60 * 60, CTRL_C = 3 };

static int interactive;
static int screen_rows, screen_columns;
static int lines_drawn;
static volatile sig_atomic_t quit;
static sigset_t unblocked;                  /* the signal mask to wait with */
static struct termios saved_terminal;

/* A CPU's ticks in each state, from its line in /proc/stat. */
struct cpu_times {
	unsigned long long user, nice, system, idle;
};

/* What the frame before saw, to take differences from. */
struct sample {
	pid_t id;
	unsigned long long starttime;       /* tells a new task that reuses an id */
	unsigned long long ticks;
};

static struct cpu_times cpus_before[MAX_CPUS];   /* all 0 before the first frame: since boot */
static struct sample *samples_before;
static int nsamples_before;
static double uptime_before;

struct row {
	const struct proc_task *task;
	double cpu;
};

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: top [-b] [-H] [-d seconds] [-n frames]\n"
		     "  -b          batch mode: frames one after another, no screen control\n"
		     "  -H          threads instead of processes\n"
		     "  -d seconds  between frames (1; fractions allowed)\n"
		     "  -n frames   end after this many frames\n"
		     "  -h          this help\n"
		     "Keys: q or Ctrl-C quits, any other redraws now.\n");
	exit(status);
}

static void die(const char *what)
{
	fprintf(stderr, "top: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Prints a line of the frame; on the screen, cut at its width, and only as
 * many as it has rows. */
static void line(const char *format, ...)
{
	char text[512];
	va_list args;
	if (interactive && lines_drawn == screen_rows)
		return;
	va_start(args, format);
	vsnprintf(text, sizeof text, format, args);
	va_end(args);
	if (interactive)        /* no newline after the last row: the screen would scroll */
		printf("%s%.*s\033[K", lines_drawn ? "\n" : "", screen_columns, text);
	else
		printf("%s\n", text);
	lines_drawn++;
}

/* Reads every CPU's line of /proc/stat into cpus: how many CPUs there are. */
static int read_cpus(struct cpu_times *cpus)
{
	FILE *file = fopen("/proc/stat", "r");
	if (!file)
		die("/proc/stat");
	int count = 0;
	char *text = NULL;
	size_t size = 0;
	while (getline(&text, &size, file) > 0) {
		int cpu;
		if (strncmp(text, "cpu", 3) != 0 || !isdigit((unsigned char)text[3]))
			continue;             /* not "cpuN": the first line sums them all */
		unsigned long long user, nice, system, idle, iowait = 0, irq = 0, softirq = 0;
		if (sscanf(text, "cpu%d %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice, &system, &idle,
			   &iowait, &irq, &softirq) < 5 || cpu < 0 || cpu >= MAX_CPUS)
			continue;
		/* Waiting for I/O, the CPU is idle; interrupts are the kernel's time. */
		cpus[cpu] = (struct cpu_times){ user, nice, system + irq + softirq, idle + iowait };
		if (cpu >= count)
			count = cpu + 1;
	}
	free(text);
	fclose(file);
	return count;
}

/* How much a counter grew (Linux's idle time may step back a little). */
static double growth(unsigned long long now, unsigned long long before)
{
	return now > before ? now - before : 0;
}

static void draw_cpus(void)
{
	static struct cpu_times now[MAX_CPUS];
	int count = read_cpus(now);
	for (int i = 0; i < count; i++) {
		struct cpu_times *before = &cpus_before[i];
		double user = growth(now[i].user, before->user), nice = growth(now[i].nice, before->nice);
		double system = growth(now[i].system, before->system), idle = growth(now[i].idle, before->idle);
		double total = user + nice + system + idle;
		if (total <= 0)
			total = 1;
		line("%%Cpu%-3d: %5.1f us, %5.1f sy, %5.1f ni, %5.1f id", i, 100 * user / total, 100 * system / total,
		     100 * nice / total, 100 * idle / total);
		*before = now[i];
	}
}

/* The value of one "Name:   123 kB" line of /proc/meminfo, in MiB. */
static double meminfo_mib(const char *text, const char *name)
{
	const char *at = strstr(text, name);
	return at ? strtod(at + strlen(name), NULL) / 1024 : 0;
}

static void draw_memory(void)
{
	char text[4096];
	if (proc_read_file("/proc/meminfo", text, sizeof text) < 0)
		die("/proc/meminfo");
	line("MiB Mem : %9.1f total, %9.1f free, %9.1f avail", meminfo_mib(text, "MemTotal:"),
	     meminfo_mib(text, "MemFree:"), meminfo_mib(text, "MemAvailable:"));
}

/* "3 days, 4:05" or "17 min", as top and uptime say it. */
static void format_uptime(char *buf, size_t size, double seconds)
{
	long minutes = seconds / 60, days = minutes / (24 * 60), hours = minutes / 60 % 24;
	int len = 0;
	if (days)
		len = snprintf(buf, size, "%ld day%s, ", days, days == 1 ? "" : "s");
	if (hours)
		snprintf(buf + len, size - len, "%2ld:%02ld", hours, minutes % 60);
	else
		snprintf(buf + len, size - len, "%ld min", minutes % 60);
}

static void draw_summary(double uptime, const struct proc_task *tasks, int ntasks, int threads)
{
	char clock[16] = "", up[64], load[3][16] = { "?", "?", "?" }, text[128];
	time_t now = time(NULL);
	struct tm local;
	if (localtime_r(&now, &local))
		strftime(clock, sizeof clock, "%H:%M:%S", &local);
	format_uptime(up, sizeof up, uptime);
	if (proc_read_file("/proc/loadavg", text, sizeof text) >= 0)
		sscanf(text, "%15s %15s %15s", load[0], load[1], load[2]);
	line("top - %s up %s,  load average: %s, %s, %s", clock, up, load[0], load[1], load[2]);

	int running = 0, sleeping = 0, stopped = 0, zombie = 0;
	for (int i = 0; i < ntasks; i++) {
		switch (tasks[i].stat.state) {
		case 'R':
			running++;
			break;
		case 'S':
		case 'D':
		case 'I':
			sleeping++;
			break;
		case 'T':
		case 't':
			stopped++;
			break;
		case 'Z':
			zombie++;
			break;
		}
	}
	line("%s: %4d total, %4d running, %4d sleeping, %4d stopped, %4d zombie", threads ? "Threads" : "Tasks",
	     ntasks, running, sleeping, stopped, zombie);
	draw_cpus();
	draw_memory();
}

static int by_id(const void *a, const void *b)
{
	pid_t x = ((const struct sample *)a)->id, y = ((const struct sample *)b)->id;
	return (x > y) - (x < y);
}

/* The busiest first; among equals, by id. */
static int by_cpu(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? 1 : -1;
	return (x->task->stat.id > y->task->stat.id) - (x->task->stat.id < y->task->stat.id);
}

/* A task's share of a CPU since the frame before, or since it started if
 * that frame did not see it. */
static double cpu_share(const struct proc_stat *stat, double uptime)
{
	unsigned long long ticks = stat->utime + stat->stime;
	struct sample key = { .id = stat->id };
	const struct sample *before = bsearch(&key, samples_before, nsamples_before, sizeof key, by_id);
	if (before && before->starttime == stat->starttime)
		return proc_cpu_percent(growth(ticks, before->ticks), uptime - uptime_before);
	return proc_cpu_percent(ticks, uptime - (double)stat->starttime / sysconf(_SC_CLK_TCK));
}

static void draw_rows(const struct row *rows, int nrows)
{
	long hz = sysconf(_SC_CLK_TCK);
	line("");
	line("  PID  PR  NI S  %%CPU     TIME+   P COMMAND");
	for (int i = 0; i < nrows; i++) {
		const struct proc_stat *stat = &rows[i].task->stat;
		unsigned long long hundredths = (stat->utime + stat->stime) * 100 / hz;
		char time_plus[32];
		snprintf(time_plus, sizeof time_plus, "%llu:%02llu.%02llu", hundredths / 6000, hundredths / 100 % 60,
			 hundredths % 100);
		line("%5d %3ld %3ld %c %5.1f %9s %3d %s", stat->id, stat->priority, stat->nice, stat->state, rows[i].cpu,
		     time_plus, stat->processor, stat->comm);
	}
}

static void draw_frame(int threads)
{
	double uptime = proc_uptime();
	struct proc_task *tasks;
	int ntasks = proc_read_tasks(threads, &tasks);
	if (ntasks < 0)
		die("/proc");
	struct row *rows = malloc((ntasks + 1) * sizeof *rows);            /* + 1: never malloc(0) */
	struct sample *samples = malloc((ntasks + 1) * sizeof *samples);
	if (!rows || !samples)
		die("memory");
	for (int i = 0; i < ntasks; i++) {
		const struct proc_stat *stat = &tasks[i].stat;
		rows[i] = (struct row){ &tasks[i], cpu_share(stat, uptime) };
		samples[i] = (struct sample){ stat->id, stat->starttime, stat->utime + stat->stime };
	}
	qsort(rows, ntasks, sizeof *rows, by_cpu);
	qsort(samples, ntasks, sizeof *samples, by_id);

	if (interactive) {
		proc_terminal_size(STDOUT_FILENO, &screen_rows, &screen_columns);
		printf("\033[H");
	}
	lines_drawn = 0;
	draw_summary(uptime, tasks, ntasks, threads);
	draw_rows(rows, ntasks);
	if (interactive)
		printf("\033[J");
	fflush(stdout);

	free(samples_before);
	samples_before = samples;
	nsamples_before = ntasks;
	uptime_before = uptime;
	free(rows);
	free(tasks);
}

/* Runs only while top waits for the next frame (the signals are blocked
 * elsewhere), so that pselect returns: to quit, or to draw again at the
 * terminal's new size. */
static void on_signal(int signal)
{
	if (signal != SIGWINCH)
		quit = 1;
}

static void restore_terminal(void)
{
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_terminal);
	printf("\033[?25h\n");          /* the cursor back, below the last frame */
	fflush(stdout);
}

/* Keys come one by one, unechoed, Ctrl-C and Ctrl-Z as keys rather than
 * signals (a stopped top would leave the terminal so); SIGINT, SIGTERM and
 * SIGHUP sent from elsewhere end top cleanly all the same. */
static void take_terminal(void)
{
	static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };
	catch_signals(handled, sizeof handled / sizeof handled[0], on_signal, &unblocked);

	struct termios raw = saved_terminal;
	raw.c_lflag &= ~(ICANON | ECHO | ISIG);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
	atexit(restore_terminal);
	printf("\033[?25l\033[2J");     /* hide the cursor, clear the screen */
}

/* Waits the delay out, or until a key or a signal comes: 0 to quit. */
static int wait_for_next_frame(double delay)
{
	struct timespec timeout = { (time_t)delay, (long)((delay - (time_t)delay) * 1e9) };
	if (!interactive) {
		nanosleep(&timeout, NULL);
		return 1;
	}
	fd_set keyboard;
	FD_ZERO(&keyboard);
	FD_SET(STDIN_FILENO, &keyboard);
	/* pselect unblocks the signals only while it waits, so none comes
	 * between a look at quit and the wait. */
	if (pselect(STDIN_FILENO + 1, &keyboard, NULL, NULL, &timeout, &unblocked) > 0) {
		char key;
		if (read(STDIN_FILENO, &key, 1) != 1 || key == 'q' || key == CTRL_C)
			return 0;
	}
	return !quit;
}

static void bad_value(const char *what, const char *text)
{
	fprintf(stderr, "top: bad %s: %s\n", what, text);
	usage(stderr, 1);
}

static double parse_seconds(const char *text)
{
	char *end;
	double seconds = strtod(text, &end);
	if (end == text || *end || !(seconds >= 0 && seconds <= MAX_DELAY))
		bad_value("delay", text);
	return seconds;
}

static long parse_count(const char *text)
{
	char *end;
	long count = strtol(text, &end, 10);
	if (end == text || *end || count <= 0)
		bad_value("number of frames", text);
	return count;
}

int main(int argc, char **argv)
{
	int batch = 0, threads = 0, opt;
	double delay = 1;
	long frames = 0;                 /* 0: no end */
	while ((opt = getopt(argc, argv, "bHd:n:h")) != -1) {
		switch (opt) {
		case 'b':
			batch = 1;
			break;
		case 'H':
			threads = 1;
			break;
		case 'd':
			delay = parse_seconds(optarg);
			break;
		case 'n':
			frames = parse_count(optarg);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "top: unexpected argument: %s\n", argv[optind]);
		usage(stderr, 1);
	}

	interactive = !batch && tcgetattr(STDIN_FILENO, &saved_terminal) == 0 &&
		      proc_terminal_size(STDOUT_FILENO, &screen_rows, &screen_columns);
	if (interactive)
		take_terminal();
	for (long frame = 1;; frame++) {
		if (frame > 1 && !interactive)
			printf("\n");
		draw_frame(threads);
		if (frame == frames || !wait_for_next_frame(delay))
			break;
	}
	return 0;
}
