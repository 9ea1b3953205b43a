/*
 * The helpers of workload.h. Nothing here is specific to one kernel: the
 * same calls run on leftmost and on Linux.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *workload = "workload";

static void usage(const char *about, const struct param *params, int n)
{
	fprintf(stderr, "usage: %s [key=value ...]\n%s\n", workload, about);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "  %s=%ld..%ld  %s (default %ld)\n", params[i].key, params[i].min,
			params[i].max, params[i].help, params[i].value);
	exit(2);
}

/* The value of "key=value" if word names params[i]'s key, else NULL. */
static const char *value_of(const char *word, const struct param *p)
{
	size_t len = strlen(p->key);
	return strncmp(word, p->key, len) == 0 && word[len] == '=' ? word + len + 1 : NULL;
}

void params_parse(const char *name, const char *about, int argc, char **argv,
		  struct param *params, int n)
{
	workload = name;
	for (int w = 1; w < argc; w++) {
		int i = 0;
		const char *text = NULL;
		while (i < n && !(text = value_of(argv[w], &params[i])))
			i++;
		if (i == n) {
			fprintf(stderr, "%s: unknown parameter '%s'\n", name, argv[w]);
			usage(about, params, n);
		}
		char *end;
		errno = 0;
		long v = strtol(text, &end, 10);
		if (!*text || *end || errno || v < params[i].min || v > params[i].max) {
			fprintf(stderr, "%s: %s: %s takes a whole number from %ld to %ld\n", name,
				argv[w], params[i].key, params[i].min, params[i].max);
			usage(about, params, n);
		}
		params[i].value = v;
	}
}

static void __attribute__((noreturn)) vdie(bool with_errno, const char *fmt, va_list ap)
{
	int err = errno;
	fprintf(stderr, "%s: ", workload);
	vfprintf(stderr, fmt, ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(1);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(false, fmt, ap);
}

void die_errno(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(true, fmt, ap);
}

static uint64_t clock_read_ns(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) != 0)
		die_errno("clock_gettime(%d)", (int)clock);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t now_ns(void)
{
	return clock_read_ns(CLOCK_MONOTONIC);
}

uint64_t thread_cpu_ns(void)
{
	return clock_read_ns(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t process_cpu_ns(pid_t pid)
{
	clockid_t clock;
	int err = clock_getcpuclockid(pid, &clock);
	if (err) {
		errno = err;
		die_errno("clock_getcpuclockid(%d)", (int)pid);
	}
	return clock_read_ns(clock);
}

void sleep_until_ns(uint64_t deadline)
{
	struct timespec ts = { .tv_sec = (time_t)(deadline / 1000000000u),
			       .tv_nsec = (long)(deadline % 1000000000u) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void sleep_ms(long ms)
{
	sleep_until_ns(now_ns() + (uint64_t)ms * 1000000u);
}

void burn_cpu_ns(uint64_t ns)
{
	uint64_t until = thread_cpu_ns() + ns;
	while (thread_cpu_ns() < until)
		;
}

struct machine_stat machine_stat_now(void)
{
	struct machine_stat m = { 0, 0, 0 };
	FILE *stat = fopen("/proc/stat", "r");
	char line[256];
	unsigned long long user, nice, system, idle, ctxt;
	while (stat && fgets(line, sizeof(line), stat)) {
		if (strncmp(line, "cpu ", 4) == 0 && sscanf(line + 4, "%llu %llu %llu %llu", &user, &nice, &system, &idle) == 4) {
			m.busy = user + nice + system;
			m.idle = idle;
		} else if (sscanf(line, "ctxt %llu", &ctxt) == 1) {
			m.switches = ctxt;
		}
	}
	if (stat)
		fclose(stat);
	return m;
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

void check_cpu(const char *key, long cpu)
{
	if (cpu < -1 || cpu >= online_cpus())
		die("%s=%ld: CPUs 0 to %d are online (-1: any)", key, cpu, online_cpus() - 1);
}

void pin_to_cpu(int cpu)
{
	if (cpu < 0)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		die_errno("sched_setaffinity(cpu %d)", cpu);
}

void set_nice(int nice)
{
	if (setpriority(PRIO_PROCESS, 0, nice) != 0)
		die_errno("setpriority(%d)", nice);
}

/* musl's sched_setscheduler() always fails with ENOSYS (POSIX's call sets
 * a whole process, Linux's one thread), so ask the kernel directly. */
bool try_fifo(int priority)
{
	struct sched_param sp = { .sched_priority = priority };
	return syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &sp) == 0;
}

void set_fifo(int priority)
{
	if (!try_fifo(priority))
		die_errno("sched_setscheduler(SCHED_FIFO, %d)", priority);
}

void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die_errno("mmap(%zu bytes, shared)", size);
	return p;
}

void gate_init(struct gate *g)
{
	if (pipe(g->fd) != 0)
		die_errno("pipe");
}

/* Children wait in read() until the write end closes everywhere: the
 * parent closes its copy, and each child closed its own after the fork. */
void gate_open(struct gate *g)
{
	close(g->fd[1]);
	close(g->fd[0]);
}

static void gate_wait(struct gate *g)
{
	char c;
	close(g->fd[1]);
	while (read(g->fd[0], &c, 1) < 0 && errno == EINTR)
		;
	close(g->fd[0]);
}

pid_t spawn(void (*body)(void *arg), void *arg, int cpu, int nice, struct gate *g)
{
	fflush(NULL);                      /* else the child writes the parent's buffer again */
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid > 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);                  /* the parent is already gone */
	pin_to_cpu(cpu);
	if (nice)
		set_nice(nice);
	if (g)
		gate_wait(g);
	body(arg);
	_exit(0);
}

void hog(void *counter)
{
	struct counter *c = counter;
	prctl(PR_SET_NAME, "hog");        /* what ps, top and /proc/sched_debug call it */
	for (;;)
		c->n++;
}

void stop_children(const pid_t *pids, int n)
{
	int err = errno;
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	errno = err;
}

void reap_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid(%d)", (int)pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("child %d failed (wait status %#x)", (int)pid, status);
}

/* A child that has exited (it could not set itself up, or was killed) would
 * spoil the figures: then stop the others too, and die. */
void fork_and_reap(void)
{
	pid_t pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0)
		_exit(0);
	reap_child(pid);
}

static void check_alive(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		int status;
		if (waitpid(pids[i], &status, WNOHANG) == pids[i]) {
			stop_children(pids, n);
			die("child %d ended early (wait status %#x)", (int)pids[i], status);
		}
	}
}

uint64_t measure_children(const pid_t *pids, const struct counter *counters, int n, long ms,
			  uint64_t *counts, uint64_t *cpu_ns)
{
	check_alive(pids, n);
	uint64_t start = now_ns();
	for (int i = 0; i < n; i++) {
		counts[i] = counters[i].n;
		if (cpu_ns)
			cpu_ns[i] = process_cpu_ns(pids[i]);
	}
	sleep_ms(ms);
	uint64_t interval = now_ns() - start;
	check_alive(pids, n);
	for (int i = 0; i < n; i++) {
		counts[i] = counters[i].n - counts[i];
		if (cpu_ns)
			cpu_ns[i] = process_cpu_ns(pids[i]) - cpu_ns[i];
	}
	return interval;
}

long repeat_timed(void (*op)(void *arg), void *arg, long warmup, long count, long max_ms,
		  long check_every, uint64_t *elapsed_ns)
{
	for (long i = 0; i < warmup; i++)
		op(arg);
	uint64_t start = now_ns(), deadline = start + (uint64_t)max_ms * 1000000u;
	long done = 0;
	do {
		long batch = count - done < check_every ? count - done : check_every;
		for (long i = 0; i < batch; i++)
			op(arg);
		done += batch;
	} while (done < count && now_ns() <= deadline);
	*elapsed_ns = now_ns() - start;
	return done;
}

bool shares_of_sum(const uint64_t *amount, int n, double *share)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += (double)amount[i];
	if (sum == 0)
		return false;
	for (int i = 0; i < n; i++)
		share[i] = (double)amount[i] / sum;
	return true;
}

double max_deviation(const double *value, const double *ideal, int n)
{
	double worst = 0;
	for (int i = 0; i < n; i++) {
		double dev = fabs(value[i] - ideal[i]) / ideal[i];
		worst = dev > worst ? dev : worst;
	}
	return worst;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_u64);
}

uint64_t percentile(const uint64_t *sorted, size_t n, double p)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);
	return sorted[rank == 0 ? 0 : (rank > n ? n : rank) - 1];
}

/* nice -20..19: each step is about 10% of CPU time (the seed's table). */
static const unsigned nice_weights[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

unsigned nice_to_weight(int nice)
{
	return nice_weights[(nice < -20 ? -20 : nice > 19 ? 19 : nice) + 20];
}

static char line[4096];
static size_t used;

static void append(const char *fmt, va_list ap)
{
	if (used < sizeof(line))
		used += (size_t)vsnprintf(line + used, sizeof(line) - used, fmt, ap);
}

static void appendf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append(fmt, ap);
	va_end(ap);
}

void result_begin(void)
{
	used = 0;
	appendf("RESULT name=%s", workload);
}

void result_add(const char *fmt, ...)
{
	va_list ap;
	appendf(" ");
	va_start(ap, fmt);
	append(fmt, ap);
	va_end(ap);
}

void result_list(const char *key, const double *v, int n, int decimals)
{
	appendf(" %s=", key);
	for (int i = 0; i < n; i++)
		appendf("%s%.*f", i ? "," : "", decimals, v[i]);
}

void result_end(void)
{
	appendf("\n");
	if (used >= sizeof(line))
		die("RESULT line longer than %zu bytes", sizeof(line) - 1);
	fflush(stdout);
	if (write(STDOUT_FILENO, line, used) != (ssize_t)used)
		die_errno("write");
}
