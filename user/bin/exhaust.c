/*
 * exhaust: runs the kernel out of each thing a program can ask it for,
 * each in a child of its own, whose end must give it all back:
 *
 *   memory   one mapping larger than all memory (refused: ENOMEM), then
 *            anonymous memory mapped and touched 4 MiB at a time until a
 *            mapping fails (ENOMEM: more than is free is refused); then
 *            two mappings of 3/4 of what is free, touched until a page
 *            fault finds no page: the child is killed (SIGKILL, as by
 *            Linux's OOM killer);
 *   fds      descriptors opened until EMFILE, then again with the soft
 *            limit raised to the hard one;
 *   forks    children that sleep, forked until fork fails, then killed;
 *   threads  threads that sleep, created until pthread_create fails.
 *
 * After each, the kernel's free memory and task count must be what they
 * were (user/bin/leakcheck.h), and after the memory one a fork and exec of
 * /bin/true must still work. One line per part, then
 *
 *   RESULT name=exhaust mem_mib=N mem_end=ENOMEM over_end=SIGKILL ... fds=N fd_errno=EMFILE ...
 *          leaked_pages=0 leaked_bytes=0 leaked_tasks=0
 *
 * where the leaks are what the parts left, added up. Exits 0 if each part got
 * the error it should and nothing leaked, else 1. Each part is bounded in
 * time: the kernel's limits end it, or a count of tries does.
 *
 * It is for leftmost's test boot: on a shared Linux machine it would take
 * most of the memory and thousands of processes before its limits stopped it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "leakcheck.h"

#define MAX_FORKS   20000
#define MAX_THREADS 20000
#define CHUNK       (4L << 20)

/* What a child found, in memory it shares with its parent: written as it
 * goes, so that it is there even if the child is killed. */
struct outcome {
	long count, count2;               /* MiB, descriptors, children, threads */
	int err, err2;                    /* the errno that stopped it: 0 if it was never refused */
};
static struct outcome *out;

static long long leaked_bytes;       /* by all the parts together */
static long leaked_tasks;
static int failures;

static const char *errno_name(int e)
{
	switch (e) {
	case 0: return "none";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	default: return "other";
	}
}

static const char *signal_name(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status) == 0 ? "exit0" : "exit_other";
	switch (WTERMSIG(status)) {
	case SIGKILL: return "SIGKILL";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	default: return "other_signal";
	}
}

/* Run fn in a child; its wait status. */
static int in_child(void (*fn)(void))
{
	memset(out, 0, sizeof(*out));
	pid_t pid = fork();
	if (pid < 0) {
		perror("exhaust: fork");
		exit(1);
	}
	if (pid == 0) {
		fn();
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Did the part leave anything behind? Adds it up. */
static void check_leaks(const char *part, struct kernel_usage before)
{
	struct kernel_usage after = kernel_usage_settled(before, 10);
	long long bytes = before.free_bytes - after.free_bytes;
	long tasks = after.tasks - before.tasks;
	printf("exhaust: %s: leaked %lld bytes, %ld tasks\n", part, bytes, tasks);
	if (bytes != 0 || tasks != 0)
		failures++;
	leaked_bytes += bytes;
	leaked_tasks += tasks;
}

static void eat_memory(void)
{
	/* More than all memory at once: refused outright, as Linux's heuristic does. */
	struct sysinfo si;
	sysinfo(&si);
	size_t all = (size_t)si.totalram * si.mem_unit * 2;
	void *huge = mmap(NULL, all, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	out->err2 = huge == MAP_FAILED ? errno : 0;
	for (;;) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			out->err = errno;
			return;
		}
		for (long i = 0; i < CHUNK; i += 4096)
			p[i] = 1;
		out->count += CHUNK >> 20;
	}
}

/* Two mappings, each of most of the free memory, made before either is
 * touched: each alone could be had, so both are given (the kernel, like
 * Linux, takes pages only as they are touched); touching both runs out in
 * the middle of a page fault. */
static void overcommit_memory(void)
{
	struct sysinfo si;
	sysinfo(&si);
	size_t most = (size_t)si.freeram * si.mem_unit / 4 * 3 & ~4095UL;
	char *p[2];
	for (int i = 0; i < 2; i++) {
		p[i] = mmap(NULL, most, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p[i] == MAP_FAILED) {
			out->err = errno;
			return;
		}
	}
	for (int i = 0; i < 2; i++) {
		for (size_t j = 0; j < most; j += 4096) {
			p[i][j] = 1;
			if (j % (1 << 20) == 0)
				out->count++;
		}
	}
}

static void open_descriptors(void)
{
	int fd;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		out->count++;
	out->err = errno;
	struct rlimit lim;
	getrlimit(RLIMIT_NOFILE, &lim);
	lim.rlim_cur = lim.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
		return;
	out->count2 = out->count;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		out->count2++;
	out->err2 = errno;
}

static void fork_children(void)
{
	static pid_t pids[MAX_FORKS];
	long n = 0;
	while (n < MAX_FORKS) {
		pid_t pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0) {
			out->err = errno;
			break;
		}
		pids[n++] = pid;
		out->count = n;
	}
	for (long i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (long i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void create_threads(void)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 16384);
	while (out->count < MAX_THREADS) {
		pthread_t t;
		int err = pthread_create(&t, &attr, sleeper, NULL);
		if (err) {
			out->err = err;
			break;
		}
		out->count++;
	}
	_exit(0);                         /* exit_group: every thread goes */
}

static void exec_true(void)
{
	char *const argv[] = { "/bin/true", NULL };
	execv(argv[0], argv);
	_exit(127);
}

int main(void)
{
	out = mmap(NULL, sizeof(*out), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED) {
		perror("exhaust: mmap");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct kernel_usage before = kernel_usage_now();
	int status = in_child(eat_memory);
	long mem_mib = out->count;
	int mem_err = out->err, huge_err = out->err2;
	const char *mem_end = mem_err ? errno_name(mem_err) : signal_name(status);
	printf("exhaust: memory: a mapping of twice all memory: %s; then %ld MiB touched, ended by %s\n",
	       errno_name(huge_err), mem_mib, mem_end);
	status = in_child(overcommit_memory);
	long over_mib = out->count;
	const char *over_end = out->err ? errno_name(out->err) : signal_name(status);
	printf("exhaust: memory: two mappings of 3/4 of it, touched: %ld MiB, ended by %s\n", over_mib, over_end);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		failures++;
	int true_status = in_child(exec_true);
	printf("exhaust: memory: then fork and exec /bin/true: %s\n", signal_name(true_status));
	check_leaks("memory", before);
	if (huge_err != ENOMEM || (mem_err != ENOMEM && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) ||
	    !WIFEXITED(true_status) || WEXITSTATUS(true_status) != 0)
		failures++;

	before = kernel_usage_now();
	status = in_child(open_descriptors);
	long fds = out->count, fds_hard = out->count2;
	int fd_err = out->err, fd_err2 = out->err2;
	printf("exhaust: descriptors: %ld opened, then %s; %ld with the hard limit, then %s\n", fds,
	       errno_name(fd_err), fds_hard, errno_name(fd_err2));
	check_leaks("descriptors", before);
	if (fd_err != EMFILE || (fd_err2 != EMFILE && fd_err2 != ENFILE) || !WIFEXITED(status))
		failures++;

	before = kernel_usage_now();
	status = in_child(fork_children);
	long forks = out->count;
	int fork_err = out->err;
	printf("exhaust: processes: %ld forked, then %s\n", forks, errno_name(fork_err));
	check_leaks("processes", before);
	if (fork_err != EAGAIN || !WIFEXITED(status))
		failures++;

	before = kernel_usage_now();
	status = in_child(create_threads);
	long threads = out->count;
	int thread_err = out->err;
	printf("exhaust: threads: %ld created, then %s\n", threads, errno_name(thread_err));
	check_leaks("threads", before);
	if (thread_err != EAGAIN || !WIFEXITED(status))
		failures++;

	printf("RESULT name=exhaust mem_mib=%ld mem_huge=%s mem_end=%s over_mib=%ld over_end=%s after_oom=%s fds=%ld fd_errno=%s fds_hard=%ld "
	       "fd_hard_errno=%s forks=%ld fork_errno=%s threads=%ld thread_errno=%s",
	       mem_mib, errno_name(huge_err), mem_end, over_mib, over_end, signal_name(true_status), fds, errno_name(fd_err), fds_hard,
	       errno_name(fd_err2), forks, errno_name(fork_err), threads, errno_name(thread_err));
	print_leaks((struct kernel_usage){ leaked_bytes, 0 }, (struct kernel_usage){ 0, leaked_tasks });
	printf("\n");
	printf("exhaust: %s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
