/*
 * demo: CFS at work, visible within seconds. leftmost's init runs it
 * first; the shell's `demo` starts it again.
 *
 *   demo [cfs|balance] [seconds=N]
 *
 *   cfs      (default) on every CPU, pinned to it: hogs at nice 0, 0, 5 and
 *            -5, an interactive task (sleeps 10 ms, works 1 ms) and a
 *            SCHED_FIFO 50 task (every 20 ms, works 0.5 ms)
 *   balance  N+1 unpinned hogs on N CPUs: watch the balancer even them out
 *
 * Once a second a table: each task's pid, name, the CPU it last ran on,
 * policy/nice, its share of a CPU over the last second, its CPU time so
 * far, and for the two sleepers how late their wake-ups ran (average and
 * worst over the last second). Nice levels split a CPU by their weights
 * (1024 : 1024 : 335 : 3121), and the sleepers keep low latency next to
 * the hogs. A nice level below 0 or SCHED_FIFO takes privilege on Linux:
 * refused, the task keeps what it had, and the table shows that.
 *
 * The tasks are forked children of one program, named for ps, that die
 * with it. On a terminal, q or Ctrl-C stops the demo (the terminal's
 * settings come back however it stops); it also stops after seconds=N
 * (0, the default: never). The CPUs are those it may run on.
 *
 * Exit status: 0; 2 for a bad argument; 1 if it cannot start; 128 plus
 * the signal when SIGTERM, SIGHUP or SIGQUIT stopped it.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"
#include "../lib/proc.h"
#include "../lib/signals.h"

#define NS_PER_US UINT64_C(1000)
#define NS_PER_MS UINT64_C(1000000)
#define NS_PER_S  UINT64_C(1000000000)

enum { HOGS_PER_CPU = 4, TASKS_PER_CPU = HOGS_PER_CPU + 2, FIFO_PRIORITY = 50, REPORT_PRIORITY = 90 };

static const char usage[] = "usage: demo [cfs|balance] [seconds=N]\n";

enum kind { HOG, INTERACTIVE, PERIODIC_RT };

static const struct {
	const char *name;
	uint64_t period, work;       /* a sleeper's, in ns */
} kinds[] = {
	[HOG] = { "hog", 0, 0 },
	[INTERACTIVE] = { "interactive", 10 * NS_PER_MS, NS_PER_MS },
	[PERIODIC_RT] = { "fifo-periodic", 20 * NS_PER_MS, NS_PER_MS / 2 },
};

/* How late a sleeper's wake-ups ran since the last table: the child adds,
 * the parent takes each figure and puts 0 in its place. A wake-up recorded
 * while the parent takes them may count half in this table, half in the
 * next: a demo can live with that. */
struct lateness {
	_Atomic uint64_t sum, max, wakeups;
};

struct child {
	pid_t pid;
	enum kind kind;
	bool fifo;                   /* SCHED_FIFO could be set */
	int nice;                    /* else the nice level it has */
	clockid_t clock;             /* its CPU time */
	uint64_t last_runtime;
	struct lateness *late;       /* in memory shared with it */
};

static struct child *children;
static int nchildren;

static bool keys;                /* stdin is a terminal, in the mode for keys */
static struct termios saved_terminal;
static volatile sig_atomic_t stop_signal;
static sigset_t unblocked;       /* the signal mask to wait with */

static uint64_t now_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return t.tv_sec * NS_PER_S + t.tv_nsec;
}

static void work_for(uint64_t ns)
{
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static void record(struct lateness *late, uint64_t ns)
{
	atomic_fetch_add(&late->sum, ns);
	atomic_fetch_add(&late->wakeups, 1);
	/* A compare-and-swap: the parent may put 0 there meanwhile. */
	uint64_t max = atomic_load(&late->max);
	while (ns > max && !atomic_compare_exchange_weak(&late->max, &max, ns))
		;
}

/* Sleep to absolute deadlines `period` apart, work `work` each time, and
 * record how late each wake-up ran. */
static noreturn void sleeper(struct lateness *late, uint64_t period, uint64_t work)
{
	uint64_t deadline = now_ns(CLOCK_MONOTONIC);
	for (;;) {
		deadline += period;
		struct timespec until = { deadline / NS_PER_S, deadline % NS_PER_S };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
			;
		uint64_t now = now_ns(CLOCK_MONOTONIC), ns_late = now > deadline ? now - deadline : 0;
		record(late, ns_late);
		if (ns_late > period)
			deadline = now;             /* far behind: start again from now */
		work_for(work);
	}
}

static noreturn void run_child(struct child *c, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)            /* the parent died before the line above */
		_exit(0);
	prctl(PR_SET_NAME, kinds[c->kind].name);   /* for ps; a kernel may not rename */
	if (c->kind == HOG)
		for (;;)
			;
	sleeper(c->late, kinds[c->kind].period, kinds[c->kind].work);
}

/* Pins it to cpu (-1: any) and sets its policy or nice level, as far as
 * this process may: what it got is what the table shows. */
static void configure(struct child *c, int cpu, int nice)
{
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(c->pid, sizeof set, &set) < 0)
			warn("cannot pin %s %d to CPU %d", kinds[c->kind].name, c->pid, cpu);
	}
	if (c->kind == PERIODIC_RT) {
		/* musl's sched_setscheduler() always fails (ENOSYS): the system call. */
		struct sched_param param = { .sched_priority = FIFO_PRIORITY };
		c->fifo = syscall(SYS_sched_setscheduler, c->pid, SCHED_FIFO, &param) == 0;
	} else {
		setpriority(PRIO_PROCESS, c->pid, nice);
	}
	c->nice = getpriority(PRIO_PROCESS, c->pid);
	if (clock_getcpuclockid(c->pid, &c->clock) != 0)
		errx(1, "no CPU-time clock for %d", c->pid);
}

static void add(enum kind kind, int cpu, int nice)
{
	struct child *c = &children[nchildren];
	c->kind = kind;
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0)
		run_child(c, parent);
	c->pid = pid;
	nchildren++;
	configure(c, cpu, nice);
}

/* Room for count children, each with its lateness in shared memory. */
static bool make_children(int count)
{
	struct lateness *late = mmap(NULL, count * sizeof *late, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	children = calloc(count, sizeof *children);
	if (late == MAP_FAILED || !children)
		return false;
	for (int i = 0; i < count; i++)
		children[i].late = &late[i];
	return true;
}

static void start_cfs(const cpu_set_t *cpus)
{
	static const int nices[HOGS_PER_CPU] = { 0, 0, 5, -5 };
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, cpus))
			continue;
		for (int i = 0; i < HOGS_PER_CPU; i++)
			add(HOG, cpu, nices[i]);
		add(INTERACTIVE, cpu, 0);
		add(PERIODIC_RT, cpu, 0);
	}
}

static void start_balance(int ncpus)
{
	for (int i = 0; i <= ncpus; i++)
		add(HOG, -1, 0);
}

/* At exit, however the demo stops. */
static void end_demo(void)
{
	if (keys)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_terminal);
	for (int i = 0; i < nchildren; i++)
		kill(children[i].pid, SIGKILL);
	for (int i = 0; i < nchildren; i++)
		waitpid(children[i].pid, NULL, 0);
}

static void on_stop_signal(int signal)
{
	stop_signal = signal;
}

/* The stop signals are blocked but while the demo waits, so that none
 * comes between a look at stop_signal and the wait. */
static void catch_stop_signals(void)
{
	static const int stoppers[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	catch_signals(stoppers, sizeof stoppers / sizeof stoppers[0], on_stop_signal, &unblocked);
}

/* Keys come one by one, unechoed; Ctrl-C still sends SIGINT. Ctrl-Z is
 * off: stopped, the demo would leave the terminal in this mode. */
static bool take_terminal(void)
{
	if (tcgetattr(STDIN_FILENO, &saved_terminal) < 0)
		return false;
	struct termios for_keys = saved_terminal;
	for_keys.c_lflag &= ~(ICANON | ECHO);
	for_keys.c_cc[VMIN] = 1;
	for_keys.c_cc[VTIME] = 0;
	for_keys.c_cc[VSUSP] = _POSIX_VDISABLE;
	return tcsetattr(STDIN_FILENO, TCSADRAIN, &for_keys) == 0;
}

/* Waits until deadline (CLOCK_MONOTONIC), a stop signal or the q key:
 * false to stop. */
static bool wait_until(uint64_t deadline)
{
	struct pollfd keyboard = { .fd = STDIN_FILENO, .events = POLLIN };
	for (;;) {
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		if (now >= deadline)
			return true;
		struct timespec left = { (deadline - now) / NS_PER_S, (deadline - now) % NS_PER_S };
		int ready = ppoll(&keyboard, keys ? 1 : 0, &left, &unblocked);
		if (stop_signal)
			return false;
		char key;
		if (ready > 0 && (read(STDIN_FILENO, &key, 1) != 1 || key == 'q'))
			return false;
	}
}

static void print_row(struct child *c, uint64_t interval)
{
	uint64_t runtime = c->last_runtime;
	struct timespec t;
	if (clock_gettime(c->clock, &t) == 0)
		runtime = t.tv_sec * NS_PER_S + t.tv_nsec;
	struct proc_stat stat;
	int cpu = proc_read_stat(c->pid, 0, &stat) == 0 ? stat.processor : -1;

	char policy[16], late[48] = "-";
	if (c->fifo)
		snprintf(policy, sizeof policy, "FIFO/%d", FIFO_PRIORITY);
	else
		snprintf(policy, sizeof policy, "OTHER/%d", c->nice);
	uint64_t wakeups = atomic_exchange(&c->late->wakeups, 0), sum = atomic_exchange(&c->late->sum, 0);
	uint64_t max = atomic_exchange(&c->late->max, 0);
	if (wakeups)
		snprintf(late, sizeof late, "%" PRIu64 " / %" PRIu64, sum / wakeups / NS_PER_US, max / NS_PER_US);

	printf("%5d %-15s %3d %-8s %5.1f %12.3f  %s\n", c->pid, kinds[c->kind].name, cpu, policy,
	       100.0 * (runtime - c->last_runtime) / interval, (double)runtime / NS_PER_S, late);
	c->last_runtime = runtime;
}

static void print_table(uint64_t interval)
{
	printf("  PID NAME            CPU POLICY    %%CPU   RUNTIME(s)  WAKE-UP LATE avg/max (us)\n");
	for (int i = 0; i < nchildren; i++)
		print_row(&children[i], interval);
	fflush(stdout);
}

/* demo [cfs|balance] [seconds=N], each at most once, in any order. */
static void read_arguments(int argc, char **argv, const char **name, long *seconds)
{
	bool named = false, timed = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!named && (strcmp(arg, "cfs") == 0 || strcmp(arg, "balance") == 0)) {
			*name = arg;
			named = true;
		} else if (!timed && strncmp(arg, "seconds=", 8) == 0 &&
			   cmdline_number(arg + 8, 0, INT_MAX, seconds)) {
			timed = true;
		} else {
			warnx("bad argument '%s'", arg);
			cmdline_usage(usage, 2);
		}
	}
}

int main(int argc, char **argv)
{
	const char *name = "cfs";
	long seconds = 0;                         /* 0: until stopped */
	read_arguments(argc, argv, &name, &seconds);

	cpu_set_t cpus;
	if (sched_getaffinity(0, sizeof cpus, &cpus) < 0)
		err(1, "sched_getaffinity");
	int ncpus = CPU_COUNT(&cpus);             /* musl's sysconf(_SC_NPROCESSORS_ONLN) */
	bool balance = strcmp(name, "balance") == 0;
	if (!make_children(balance ? ncpus + 1 : ncpus * TASKS_PER_CPU))
		err(1, "no memory for the tasks");
	atexit(end_demo);
	if (balance)
		start_balance(ncpus);
	else
		start_cfs(&cpus);

	catch_stop_signals();
	keys = take_terminal();
	/* Reporting from above the tasks, so that the table comes out on time. */
	struct sched_param param = { .sched_priority = REPORT_PRIORITY };
	syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &param);
	printf("demo: %s: %d tasks on %d CPUs; a table every second%s\n", name, nchildren, ncpus,
	       keys ? "; q stops it (Ctrl-T h: the kernel's debug keys)" : "");
	fflush(stdout);

	uint64_t start = now_ns(CLOCK_MONOTONIC), last = start;
	for (long n = 1; seconds == 0 || n <= seconds; n++) {
		if (!wait_until(start + n * NS_PER_S))
			break;
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		print_table(now - last);
		last = now;
	}
	return stop_signal && stop_signal != SIGINT ? 128 + stop_signal : 0;
}
