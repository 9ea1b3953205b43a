/*
 * The process, time and scheduling system calls, case by case: one line
 * per case, "proc: what = result". The same binary runs on the host's
 * Linux and on leftmost, and the two outputs must be the same line for
 * line (tools/runtests.py, the `linux=` check). So nothing that differs
 * between two machines is printed as it is: no pids, no times, only how
 * they compare. To add a case, add a line to main() or a function it calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CASES_NAME "proc"
#include "cases.h"

static int global = 1;

static void processes(const char *self)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(7);
	show_status("fork, child exits 7", pid);

	pid_t parent = getpid();
	if ((pid = fork()) == 0)
		_exit(getppid() == parent ? 0 : 1);
	show_status("child's getppid() is the parent's getpid() (0: yes)", pid);

	if ((pid = fork()) == 0) {
		global = 2;
		_exit(global);
	}
	show_status("child changes a global", pid);
	printf("proc: the parent's copy of it = %d\n", global);

	if ((pid = fork()) == 0)
		for (;;)
			;
	show("waitpid(running child, WNOHANG)", waitpid(pid, NULL, WNOHANG));
	show("kill(child, SIGKILL)", kill(pid, SIGKILL));
	show_status("spinning child, SIGKILL", pid);
	show("kill(reaped child, 0)", kill(pid, 0));
	show("waitpid(-1) with no children", waitpid(-1, NULL, 0));
	show("waitpid(-1, bad options)", waitpid(-1, NULL, 0x1000));
	show("kill(self, 0)", kill(getpid(), 0));
	show("kill(self, 65)", kill(getpid(), 65));
	show("kill(self, SIGCHLD) (ignored)", kill(getpid(), SIGCHLD));

	if ((pid = vfork()) == 0)
		_exit(5);
	show_status("vfork, child exits 5", pid);

	char *const none[] = { NULL };
	show("execve(/nonexistent)", execve("/nonexistent", none, none));
	show("execve(self, argv at address 8)", syscall(SYS_execve, self, 8L, none));
	if ((pid = fork()) == 0) {
		char *const argv[] = { (char *)self, "exec-child", NULL };
		char *const envp[] = { "LEFTMOST_TEST=yes", NULL };
		execve(self, argv, envp);
		_exit(99);
	}
	show_status("fork, execve(self, exec-child)", pid);
}

static long long ns_between(struct timespec a, struct timespec b)
{
	return (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
}

static void times(void)
{
	struct timespec a, b, res;
	show("clock_gettime(MONOTONIC)", clock_gettime(CLOCK_MONOTONIC, &a));
	clock_gettime(CLOCK_MONOTONIC, &b);
	yes("MONOTONIC never goes back", ns_between(a, b) >= 0);
	show("clock_gettime(99)", clock_gettime(99, &a));
	show("clock_getres(MONOTONIC)", clock_getres(CLOCK_MONOTONIC, &res));
	printf("proc: its resolution = %ld ns\n", res.tv_nsec);
	show("clock_getres(PROCESS_CPUTIME_ID)", clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res));

	struct timeval tv;
	clock_gettime(CLOCK_REALTIME, &a);
	show("gettimeofday", gettimeofday(&tv, NULL));
	yes("REALTIME and gettimeofday agree within a second", tv.tv_sec - a.tv_sec <= 1);
	yes("time() is after 2001", time(NULL) > 1000000000);

	struct timespec bad = { 0, 1000000000 }, ms = { 0, 1000000 };
	show("nanosleep(1 s + 1e9 ns)", nanosleep(&bad, NULL));
	show("nanosleep(NULL)", nanosleep(NULL, NULL));
	clock_gettime(CLOCK_MONOTONIC, &a);
	show("nanosleep(1 ms)", nanosleep(&ms, NULL));
	clock_gettime(CLOCK_MONOTONIC, &b);
	yes("it slept 1 ms or more", ns_between(a, b) >= 1000000);
	struct timespec until = b;
	until.tv_nsec += 2000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	show_error("clock_nanosleep(MONOTONIC, ABSTIME, now + 2 ms)",
		   clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	clock_gettime(CLOCK_MONOTONIC, &a);
	yes("it woke at that time or after", ns_between(until, a) >= 0);
	show_error("clock_nanosleep(THREAD_CPUTIME_ID)", clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &ms, NULL));
	show_error("clock_nanosleep(99)", clock_nanosleep(99, 0, &ms, NULL));

	/* Another process's CPU clock: a child spins, the parent watches. */
	pid_t pid = fork();
	if (pid == 0)
		for (;;)
			;
	clockid_t clock;
	show_error("clock_getcpuclockid(child)", clock_getcpuclockid(pid, &clock));
	struct timespec spin = { 0, 50000000 };
	nanosleep(&spin, NULL);
	show("clock_gettime(child's CPU clock)", clock_gettime(clock, &a));
	yes("the child has had CPU time", a.tv_sec > 0 || a.tv_nsec > 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	show_error("clock_getcpuclockid(reaped child)", clock_getcpuclockid(pid, &clock));
}

/* musl leaves these four to the caller (POSIX means a process, Linux a
 * thread), returning ENOSYS: call the kernel directly. */
static long setscheduler(pid_t pid, int policy, const struct sched_param *p)
{
	return syscall(SYS_sched_setscheduler, pid, policy, p);
}

static long getscheduler(pid_t pid)
{
	return syscall(SYS_sched_getscheduler, pid);
}

static long getparam(pid_t pid, struct sched_param *p)
{
	return syscall(SYS_sched_getparam, pid, p);
}

static void scheduling(void)
{
	struct sched_param p = { .sched_priority = 10 };
	show("sched_getscheduler(0)", getscheduler(0));
	show("sched_setscheduler(0, FIFO, 10)", setscheduler(0, SCHED_FIFO, &p));
	show("sched_getscheduler(0)", getscheduler(0));
	p.sched_priority = 0;
	show("sched_getparam(0)", getparam(0, &p));
	printf("proc: its priority = %d\n", p.sched_priority);
	p.sched_priority = 100;
	show("sched_setscheduler(0, FIFO, 100)", setscheduler(0, SCHED_FIFO, &p));
	show("sched_setscheduler(0, 99, 100)", setscheduler(0, 99, &p));
	p.sched_priority = 0;
	show("sched_setscheduler(0, OTHER, 0)", setscheduler(0, SCHED_OTHER, &p));
	show("sched_setscheduler(-1, OTHER, 0)", setscheduler(-1, SCHED_OTHER, &p));
	show("sched_setscheduler(no such pid)", setscheduler(1 << 22, SCHED_OTHER, &p));
	show("sched_setscheduler(0, OTHER, NULL)", setscheduler(0, SCHED_OTHER, NULL));
	show("sched_setscheduler(0, BATCH, 0)", setscheduler(0, SCHED_BATCH, &p));
	show("sched_setscheduler(0, OTHER, 0)", setscheduler(0, SCHED_OTHER, &p));
	show("sched_get_priority_max(FIFO)", sched_get_priority_max(SCHED_FIFO));
	show("sched_get_priority_min(RR)", sched_get_priority_min(SCHED_RR));
	show("sched_get_priority_max(OTHER)", sched_get_priority_max(SCHED_OTHER));
	show("sched_get_priority_max(99)", sched_get_priority_max(99));
	show("sched_yield()", sched_yield());

	show("setpriority(PROCESS, 0, 5)", setpriority(PRIO_PROCESS, 0, 5));
	show("getpriority(PROCESS, 0)", getpriority(PRIO_PROCESS, 0));
	pid_t pid = fork();
	if (pid == 0)
		_exit(getpriority(PRIO_PROCESS, 0));
	show_status("a child's nice", pid);
	show("setpriority(PROCESS, 0, 100)", setpriority(PRIO_PROCESS, 0, 100));
	show("getpriority(PROCESS, 0)", getpriority(PRIO_PROCESS, 0));
	show("setpriority(7, 0, 0)", setpriority(7, 0, 0));
	show("setpriority(PROCESS, 0, 0)", setpriority(PRIO_PROCESS, 0, 0));

	cpu_set_t set;
	CPU_ZERO(&set);
	show("sched_setaffinity(0, no CPU)", sched_setaffinity(0, sizeof(set), &set));
	CPU_SET(0, &set);
	show("sched_setaffinity(0, CPU 0)", sched_setaffinity(0, sizeof(set), &set));
	yes("it runs on CPU 0", sched_getcpu() == 0);
	CPU_ZERO(&set);
	show("sched_getaffinity(0)", sched_getaffinity(0, sizeof(set), &set));
	printf("proc: CPUs in it = %d\n", CPU_COUNT(&set));
	show("sched_getaffinity(no such pid)", sched_getaffinity(1 << 22, sizeof(set), &set));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0) {
		const char *env = getenv("LEFTMOST_TEST");
		printf("proc: exec'd with argv[1] = %s, LEFTMOST_TEST = %s\n", argv[1], env ? env : "(unset)");
		return 3;
	}
	setvbuf(stdout, NULL, _IONBF, 0);     /* no buffered line may be copied by fork */
	processes(argv[0]);
	times();
	scheduling();
	printf("proc: done\n");
	return 0;
}
