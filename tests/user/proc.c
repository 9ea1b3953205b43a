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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
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

static void clocks(void)
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

	/* The vDSO: the C library reads these clocks in ring 3, and what it
	 * reads must agree with the system call's. */
	unsigned long vdso = getauxval(AT_SYSINFO_EHDR);
	yes("the auxiliary vector points at a vDSO, an ELF image", vdso && memcmp((void *)vdso, "\177ELF", 4) == 0);
	static const clockid_t read_in_ring3[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME };
	for (int i = 0; i < 3; i++) {
		struct timespec c;
		clock_gettime(read_in_ring3[i], &a);
		syscall(SYS_clock_gettime, read_in_ring3[i], &b);
		clock_gettime(read_in_ring3[i], &c);
		printf("proc: clock %d: the C library's, the system call's, the C library's again are in order: %s\n",
		       read_in_ring3[i], ns_between(a, b) >= 0 && ns_between(b, c) >= 0 ? "yes" : "no");
	}
	time_t before = time(NULL);
	syscall(SYS_gettimeofday, &tv, NULL);
	yes("time() and the gettimeofday system call agree within a second", tv.tv_sec - before <= 1 && tv.tv_sec >= before);

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

static void identity_and_limits(void)
{
	show("getuid", getuid());
	show("geteuid", geteuid());
	show("getgid", getgid());
	show("getegid", getegid());

	struct rlimit lim, back;
	show("getrlimit(STACK)", getrlimit(RLIMIT_STACK, &lim));
	yes("the stack's soft limit is at most its hard one", lim.rlim_cur <= lim.rlim_max);
	show("getrlimit(99)", getrlimit(99, &lim));
	show("getrlimit(NOFILE)", getrlimit(RLIMIT_NOFILE, &lim));
	struct rlimit lower = { 64, lim.rlim_max };
	show("setrlimit(NOFILE, 64)", setrlimit(RLIMIT_NOFILE, &lower));
	getrlimit(RLIMIT_NOFILE, &back);
	printf("proc: NOFILE's soft limit is now %llu\n", (unsigned long long)back.rlim_cur);
	struct rlimit upside_down = { 100, 50 };
	show("setrlimit(NOFILE, soft above hard)", setrlimit(RLIMIT_NOFILE, &upside_down));
	setrlimit(RLIMIT_NOFILE, &lim);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit core = { 0, 0 };
		_exit(setrlimit(RLIMIT_CORE, &core) == 0 && getrlimit(RLIMIT_CORE, &core) == 0 && core.rlim_max == 0 ? 0 : 1);
	}
	show_status("a child lowers its core limit to 0 (0: it held)", pid);
	show("prlimit(no such pid)", prlimit(1 << 22, RLIMIT_CORE, NULL, &lim));

	unsigned char bytes[64], zero[64] = { 0 };
	show("getrandom(64)", getrandom(bytes, sizeof(bytes), 0));
	yes("not all zero", memcmp(bytes, zero, sizeof(bytes)) != 0);
	show("getrandom(bad flags)", getrandom(bytes, sizeof(bytes), 0x100));
	show("getrandom(NULL, 8)", getrandom(NULL, 8, 0));

	struct sysinfo si;
	show("sysinfo", sysinfo(&si));
	yes("some RAM is free, and no more than there is", si.freeram > 0 && si.freeram <= si.totalram);
	show("sysinfo(NULL)", sysinfo(NULL));

	struct rusage ru;
	for (volatile long spin = 0; spin < 20000000; spin++)
		;
	show("getrusage(SELF)", getrusage(RUSAGE_SELF, &ru));
	yes("it has used CPU time", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec > 0 ||
				    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec > 0);
	struct rusage before;
	getrusage(RUSAGE_SELF, &before);
	for (int i = 0; i < 200000; i++)
		syscall(SYS_getppid);
	getrusage(RUSAGE_SELF, &ru);
	yes("busy in user mode, then in system calls: both user and system time grew",
	    ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec > 0 &&
	    ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec > before.ru_stime.tv_sec * 1000000 + before.ru_stime.tv_usec);
	show("getrusage(CHILDREN)", getrusage(RUSAGE_CHILDREN, &ru));
	show("getrusage(5)", getrusage(5, &ru));
	struct tms t;
	yes("times() counts up from somewhere", times(&t) > 0);
}

static void groups(void)
{
	pid_t me = getpid();
	yes("getpgid(0) is getpgrp()", getpgid(0) == getpgrp());
	yes("getsid(0) is getsid(self)", getsid(0) == getsid(me));
	show("getpgid(no such pid)", getpgid(1 << 22));
	show("setpgid(0, -1)", setpgid(0, -1));

	int gate[2];
	pipe(gate);
	pid_t child = fork();
	if (child == 0) {
		char c;
		close(gate[1]);
		read(gate[0], &c, 1);     /* until the parent is done with it */
		_exit(getpgrp() == getpid() ? 0 : 1);
	}
	close(gate[0]);
	yes("the child starts in the parent's group", getpgid(child) == getpgrp());
	show("setpgid(child, child): a group of its own", setpgid(child, child));
	yes("getpgid(child) is now the child", getpgid(child) == child);
	show("kill(-child's group, 0)", kill(-child, 0));
	show("waitpid(0, WNOHANG): none in our group", waitpid(0, NULL, WNOHANG));
	yes("waitpid(-its group, WNOHANG) finds it running", waitpid(-child, NULL, WNOHANG) == 0);
	close(gate[1]);
	show_status("it leads its group (0: yes)", child);

	if ((child = fork()) == 0) {
		pid_t sid = setsid();
		_exit(sid == getpid() && getsid(0) == getpid() && getpgrp() == getpid() ? 0 : 1);
	}
	show_status("a child's setsid() makes it a session and group leader (0: yes)", child);
	if ((child = fork()) == 0) {
		setpgid(0, 0);
		_exit(setsid() == -1 && errno == EPERM ? 0 : 1);
	}
	show_status("a group leader's setsid() is EPERM (0: yes)", child);

	siginfo_t info;
	if ((child = fork()) == 0)
		_exit(9);
	memset(&info, 0, sizeof(info));
	show("waitid(P_PID, child, WEXITED|WNOWAIT)", waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	printf("proc: si_signo %d, si_code %d, si_status %d, si_pid is the child: %s\n", info.si_signo,
	       info.si_code, info.si_status, info.si_pid == child ? "yes" : "no");
	show("waitid(P_PID, child, WEXITED)", waitid(P_PID, child, &info, WEXITED));
	show("waitid(P_ALL, WEXITED|WNOHANG) with no children", waitid(P_ALL, 0, &info, WEXITED | WNOHANG));
	show("waitid(P_ALL, no WEXITED)", waitid(P_ALL, 0, &info, WNOHANG));
	show("waitid(7, 0, WEXITED)", waitid(7, 0, &info, WEXITED));
}

/* Linux's struct sched_attr (musl has no wrapper). */
struct sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static void more_scheduling(void)
{
	struct sched_param p = { .sched_priority = 5 };
	struct timespec ts;
	show("sched_setscheduler(0, RR, 5)", setscheduler(0, SCHED_RR, &p));
	show("sched_rr_get_interval(0)", sched_rr_get_interval(0, &ts));
	printf("proc: an RR slice = %ld ms\n", ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	show("sched_setscheduler(0, FIFO | RESET_ON_FORK, 5)", setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &p));
	show("sched_getscheduler(0)", getscheduler(0));
	show("sched_rr_get_interval(0), FIFO", sched_rr_get_interval(0, &ts));
	printf("proc: a FIFO slice = %ld ms\n", ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	pid_t pid = fork();
	if (pid == 0)
		_exit((int)getscheduler(0));
	show_status("the child's policy after RESET_ON_FORK", pid);
	p.sched_priority = 0;
	show("sched_setscheduler(0, OTHER, 0)", setscheduler(0, SCHED_OTHER, &p));
	show("sched_rr_get_interval(-1)", sched_rr_get_interval(-1, &ts));
	show("sched_rr_get_interval(no such pid)", sched_rr_get_interval(1 << 22, &ts));

	struct sched_attr a = { .size = sizeof(a), .policy = SCHED_RR, .priority = 7 };
	show("sched_setattr(0, RR 7)", syscall(SYS_sched_setattr, 0, &a, 0));
	memset(&a, 0xff, sizeof(a));
	show("sched_getattr(0)", syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0));
	printf("proc: size %u policy %u priority %u nice %d flags %llu\n", a.size, a.policy, a.priority, a.nice,
	       (unsigned long long)a.flags);
	a = (struct sched_attr){ .size = sizeof(a), .policy = SCHED_OTHER, .nice = 3 };
	show("sched_setattr(0, OTHER nice 3)", syscall(SYS_sched_setattr, 0, &a, 0));
	show("getpriority(PROCESS, 0)", getpriority(PRIO_PROCESS, 0));
	a = (struct sched_attr){ .size = sizeof(a), .policy = SCHED_OTHER, .nice = 99 };
	show("sched_setattr(0, OTHER nice 99)", syscall(SYS_sched_setattr, 0, &a, 0));
	show("getpriority(PROCESS, 0): clamped", getpriority(PRIO_PROCESS, 0));
	a = (struct sched_attr){ .size = 8, .policy = SCHED_OTHER };
	show("sched_setattr(size 8)", syscall(SYS_sched_setattr, 0, &a, 0));
	printf("proc: the size it wrote back = %u\n", a.size);
	a = (struct sched_attr){ .size = sizeof(a), .policy = SCHED_OTHER, .flags = 0x100 };
	show("sched_setattr(unknown flag)", syscall(SYS_sched_setattr, 0, &a, 0));
	a.flags = 0;
	show("sched_setattr(flags argument 1)", syscall(SYS_sched_setattr, 0, &a, 1));
	show("sched_setattr(NULL)", syscall(SYS_sched_setattr, 0, NULL, 0));
	show("sched_getattr(size 8)", syscall(SYS_sched_getattr, 0, &a, 8, 0));
	show("sched_getattr(no such pid)", syscall(SYS_sched_getattr, 1 << 22, &a, sizeof(a), 0));
	struct { struct sched_attr a; uint64_t more; } big = { { .size = sizeof(big), .policy = SCHED_OTHER }, 1 };
	show("sched_setattr(larger, not zero beyond)", syscall(SYS_sched_setattr, 0, &big, 0));
	big.more = 0;
	big.a.size = sizeof(big);
	show("sched_setattr(larger, zero beyond)", syscall(SYS_sched_setattr, 0, &big, 0));
	setpriority(PRIO_PROCESS, 0, 0);

	/* A process group's nice: a child leads a group of its own and its child. */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		pid_t grandchild = fork();
		if (grandchild == 0) {
			usleep(100000);
			_exit(getpriority(PRIO_PROCESS, 0));
		}
		show("setpriority(PGRP, 0, 4)", setpriority(PRIO_PGRP, 0, 4));
		show("getpriority(PGRP, 0)", getpriority(PRIO_PGRP, 0));
		show_status("the group's other process's nice", grandchild);
		show("setpriority(PGRP, no such group, 1)", setpriority(PRIO_PGRP, 1 << 22, 1));
		show("getpriority(USER, uid 12345)", getpriority(PRIO_USER, 12345));
		_exit(0);
	}
	show_status("the group's leader", pid);
}

/* A child's own view of its scheduling, printed by the child. */
static void describe_child(const char *what)
{
	struct sched_param p = { .sched_priority = -1 };
	getparam(0, &p);
	cpu_set_t set;
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	printf("proc: %s: policy %ld priority %d nice %d CPU 0 only %s\n", what, getscheduler(0), p.sched_priority,
	       getpriority(PRIO_PROCESS, 0), CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set) ? "yes" : "no");
}

/* What a child inherits of its parent's scheduling, and what
 * SCHED_RESET_ON_FORK keeps from it: the RT policy and a negative nice,
 * and the flag itself, but not the CPUs. */
static void child_scheduling(void)
{
	cpu_set_t all, one;
	sched_getaffinity(0, sizeof(all), &all);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	show("sched_setaffinity(0, CPU 0)", sched_setaffinity(0, sizeof(one), &one));
	show("setpriority(PROCESS, 0, -2)", setpriority(PRIO_PROCESS, 0, -2));
	struct sched_param p = { .sched_priority = 3 };
	show("sched_setscheduler(0, RR, 3)", setscheduler(0, SCHED_RR, &p));
	pid_t pid = fork();
	if (pid == 0) {
		describe_child("a child of RR 3 at nice -2");
		_exit(0);
	}
	show_status("the child", pid);
	show("sched_setscheduler(0, RR | RESET_ON_FORK, 3)", setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &p));
	pid = fork();
	if (pid == 0) {
		describe_child("after RESET_ON_FORK");
		_exit(0);
	}
	show_status("the child", pid);
	p.sched_priority = 0;
	show("sched_setscheduler(0, BATCH | RESET_ON_FORK, 0)", setscheduler(0, SCHED_BATCH | SCHED_RESET_ON_FORK, &p));
	show("setpriority(PROCESS, 0, 6)", setpriority(PRIO_PROCESS, 0, 6));
	pid = fork();
	if (pid == 0) {
		describe_child("of BATCH at nice 6, after RESET_ON_FORK");
		_exit(0);
	}
	show_status("the child", pid);
	show("sched_setscheduler(0, OTHER, 0)", setscheduler(0, SCHED_OTHER, &p));
	show("setpriority(PROCESS, 0, 0)", setpriority(PRIO_PROCESS, 0, 0));
	show("sched_setaffinity(0, as before)", sched_setaffinity(0, sizeof(all), &all));
}

/* A chain of processes, each the parent of the next, in a group of its
 * own, as long as a program cares to make it, then killed as a group: no
 * walk of the process tree may recurse down it. The test runs in a
 * keeper, a subreaper on Linux, so that the chain's orphans are reaped
 * there (leftmost frees an orphan as it ends). */
#define CHAIN 200

static void process_chain(void)
{
	pid_t keeper = fork();
	if (keeper != 0) {
		show_status("the keeper of the chain", keeper);
		return;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);   /* Linux: the chain's orphans come here */
	int ready[2];
	pipe(ready);
	pid_t top = fork();
	if (top == 0) {
		setpgid(0, 0);
		int level = 1;
		pid_t next = 0;
		while (level < CHAIN && (next = fork()) == 0)
			level++;
		if (level == CHAIN || next < 0)
			write(ready[1], &level, sizeof(level));   /* the deepest */
		for (;;)
			pause();
	}
	int deepest = 0;
	read(ready[0], &deepest, sizeof(deepest));
	printf("proc: a chain of processes, each the parent of the next: %d deep\n", deepest);
	show("kill(-the chain's group, SIGKILL)", kill(-top, SIGKILL));
	show_status("the chain's top", top);
	bool gone = false;
	for (int i = 0; i < 1000 && !gone; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		gone = kill(-top, 0) == -1 && errno == ESRCH;
		if (!gone)
			usleep(10000);
	}
	yes("then the whole chain is gone", gone);
	_exit(0);
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
	clocks();
	scheduling();
	more_scheduling();
	child_scheduling();
	identity_and_limits();
	groups();
	process_chain();
	printf("proc: done\n");
	return 0;
}
