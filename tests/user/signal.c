/*
 * The signal system calls, case by case ("signal: what = result"),
 * compared line for line with the same binary on the host's Linux
 * (tests/user/cases.h). Every case that could end the process runs in a
 * child, and its end is what is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define CASES_NAME "signal"
#include "cases.h"

static volatile sig_atomic_t caught, last_signo, last_code, sender_was_me, child_status;
static volatile uintptr_t handler_stack;

static void count(int sig)
{
	caught++;
	last_signo = sig;
}

static void with_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	caught++;
	last_signo = sig;
	last_code = si->si_code;
	sender_was_me = si->si_pid == getpid();
	child_status = si->si_status;
}

static void on(int sig, void (*handler)(int), int flags)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void on_info(int sig, int flags)
{
	struct sigaction sa = { .sa_sigaction = with_info, .sa_flags = SA_SIGINFO | flags };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void basics(void)
{
	on(SIGUSR1, count, 0);
	show("raise(SIGUSR1)", raise(SIGUSR1));
	printf("signal: the handler ran %d time(s), for signal %d\n", caught, last_signo);

	on_info(SIGUSR2, 0);
	show("kill(self, SIGUSR2)", kill(getpid(), SIGUSR2));
	printf("signal: si_signo %d, si_code %d\n", last_signo, last_code);
	yes("si_pid is the sender's", sender_was_me);

	sigset_t set, old, pending;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	caught = 0;
	show("sigprocmask(BLOCK, USR1)", sigprocmask(SIG_BLOCK, &set, &old));
	show("kill(self, SIGUSR1), blocked", kill(getpid(), SIGUSR1));
	printf("signal: caught while blocked: %d\n", caught);
	show("sigpending", sigpending(&pending));
	yes("USR1 is pending", sigismember(&pending, SIGUSR1));
	show("sigprocmask(UNBLOCK, USR1)", sigprocmask(SIG_UNBLOCK, &set, NULL));
	printf("signal: caught once unblocked: %d\n", caught);
	show("sigprocmask(how 7)", sigprocmask(7, &set, NULL));

	struct sigaction sa = { .sa_handler = count };
	show("sigaction(SIGKILL)", sigaction(SIGKILL, &sa, NULL));
	show("sigaction(SIGSTOP)", sigaction(SIGSTOP, &sa, NULL));
	show("sigaction(0)", syscall(SYS_rt_sigaction, 0, &sa, NULL, 8));
	show("sigaction(65)", syscall(SYS_rt_sigaction, 65, &sa, NULL, 8));
	show("rt_sigaction(USR1, set size 4)", syscall(SYS_rt_sigaction, SIGUSR1, NULL, NULL, 4));
	show("kill(self, 0)", kill(getpid(), 0));
	show("tgkill(self, self, SIGUSR1)", syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1));
	show("tgkill(self, another tid, SIGUSR1)", syscall(SYS_tgkill, getpid(), getpid() + 1, SIGUSR1));
	show("tkill(-1, SIGUSR1)", syscall(SYS_tkill, -1, SIGUSR1));

	on(SIGTERM, SIG_IGN, 0);
	show("kill(self, SIGTERM), ignored", kill(getpid(), SIGTERM));
	on(SIGTERM, SIG_DFL, 0);

	caught = 0;
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	sigset_t none;
	sigemptyset(&none);
	show("sigsuspend(nothing blocked), USR1 pending", sigsuspend(&none));
	printf("signal: caught %d; USR1 blocked again after it: %s\n", caught,
	       (sigprocmask(SIG_BLOCK, NULL, &old), sigismember(&old, SIGUSR1)) ? "yes" : "no");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void exit_42(int sig)
{
	(void)sig;
	_exit(42);
}

static void forge_return(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)si;
	ucontext_t *uc = ucv;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)0x8000000000000000ULL;   /* non-canonical */
	uc->uc_mcontext.gregs[REG_CSGSFS] = 0x08;                          /* the kernel's CS */
}

static void ends(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGTERM);
		for (;;)
			pause();
	}
	show_status("a child sends itself SIGTERM", pid);

	if ((pid = fork()) == 0) {
		on(SIGSEGV, exit_42, 0);
		*(volatile int *)0 = 1;
		_exit(1);
	}
	show_status("a NULL write with a SIGSEGV handler that exits 42", pid);

	if ((pid = fork()) == 0) {
		on(SIGSEGV, SIG_IGN, 0);
		*(volatile int *)0 = 1;
		_exit(1);
	}
	show_status("a NULL write with SIGSEGV ignored", pid);

	int fds[2];
	pipe(fds);
	close(fds[0]);
	if ((pid = fork()) == 0) {
		write(fds[1], "x", 1);
		_exit(1);
	}
	show_status("a write to a pipe nobody reads", pid);
	on(SIGPIPE, SIG_IGN, 0);
	show("the same with SIGPIPE ignored", write(fds[1], "x", 1));
	on(SIGPIPE, SIG_DFL, 0);
	close(fds[1]);

	if ((pid = fork()) == 0) {
		struct sigaction sa = { .sa_sigaction = forge_return, .sa_flags = SA_SIGINFO };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(1);
	}
	show_status("a handler returns to a forged rip and kernel CS", pid);
}

static void interruptions(void)
{
	on(SIGALRM, count, 0);
	caught = 0;
	struct itimerval it = { .it_value = { 0, 20000 } }, cur;
	show("setitimer(REAL, 20 ms)", setitimer(ITIMER_REAL, &it, NULL));
	show("getitimer(REAL)", getitimer(ITIMER_REAL, &cur));
	yes("it has at most 20 ms to go", cur.it_value.tv_sec == 0 && cur.it_value.tv_usec <= 20000);
	show("pause() until SIGALRM", pause());
	printf("signal: SIGALRM caught %d time(s)\n", caught);
	it.it_value.tv_usec = 1000000;
	show("setitimer(REAL, usec 1000000)", setitimer(ITIMER_REAL, &it, NULL));
	show("alarm(100)", alarm(100));
	show("alarm(0): what was left", alarm(0));

	pid_t pid = fork();
	if (pid == 0) {
		on(SIGUSR1, count, 0);
		struct timespec ten = { 10, 0 }, left = { 0, 0 };
		int ret = nanosleep(&ten, &left);
		_exit(ret == -1 && errno == EINTR && left.tv_sec > 5 ? 0 : 1);
	}
	struct timespec moment = { 0, 50000000 };
	nanosleep(&moment, NULL);
	kill(pid, SIGUSR1);
	show_status("nanosleep(10 s) cut short by a handled signal (0: EINTR, time left)", pid);

	int fds[2];
	pipe(fds);                        /* nobody writes: a read waits until a signal comes */
	if ((pid = fork()) == 0) {
		char c;
		_exit((int)read(fds[0], &c, 1));
	}
	nanosleep(&moment, NULL);
	kill(pid, SIGKILL);
	show_status("a read of an empty pipe, then SIGKILL", pid);
	if ((pid = fork()) == 0) {
		on(SIGUSR1, count, 0);
		char c;
		_exit(read(fds[0], &c, 1) == -1 && errno == EINTR ? 0 : 1);
	}
	nanosleep(&moment, NULL);
	kill(pid, SIGUSR1);
	show_status("a read of an empty pipe cut short by a handled signal (0: EINTR)", pid);
	close(fds[0]);
	close(fds[1]);

	on_info(SIGCHLD, 0);
	caught = 0;
	if ((pid = fork()) == 0)
		_exit(3);
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	while (!caught)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("signal: SIGCHLD: si_code %d, si_status %d\n", last_code, child_status);
	show_status("that child", pid);
	on(SIGCHLD, SIG_IGN, 0);
	if ((pid = fork()) == 0)
		_exit(4);
	show("waitpid(child) with SIGCHLD ignored", waitpid(pid, NULL, 0));
	on(SIGCHLD, SIG_DFL, 0);
}

/* A 1 µs interval timer with SIGALRM blocked: Linux sends SIGALRM once
 * and starts the timer again only when the signal is taken (so getitimer
 * says nothing is left, the interval still 1 µs). A kernel that starts it
 * again from its interrupt, always behind, never leaves that interrupt. */
static void fast_timer(void)
{
	sigset_t alrm, pending;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	struct itimerval it = { .it_interval = { 0, 1 }, .it_value = { 0, 1 } }, cur, old;
	show("SIGALRM blocked; setitimer(REAL, 1 us, every 1 us)", setitimer(ITIMER_REAL, &it, NULL));
	struct timespec before, after, nap = { 0, 200000000 };
	clock_gettime(CLOCK_MONOTONIC, &before);
	show("nanosleep(200 ms)", nanosleep(&nap, NULL));
	clock_gettime(CLOCK_MONOTONIC, &after);
	double took = (double)(after.tv_sec - before.tv_sec) + (double)(after.tv_nsec - before.tv_nsec) / 1e9;
	yes("it took 200 ms to 2 s", took >= 0.2 && took < 2.0);
	show("getitimer(REAL)", getitimer(ITIMER_REAL, &cur));
	printf("signal: value %ld s %ld us, interval %ld s %ld us\n", (long)cur.it_value.tv_sec,
	       (long)cur.it_value.tv_usec, (long)cur.it_interval.tv_sec, (long)cur.it_interval.tv_usec);
	sigpending(&pending);
	yes("SIGALRM is pending", sigismember(&pending, SIGALRM));
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	show("setitimer(REAL, 0): disarmed", setitimer(ITIMER_REAL, &off, &old));
	printf("signal: it had value %ld s %ld us, interval %ld s %ld us\n", (long)old.it_value.tv_sec,
	       (long)old.it_value.tv_usec, (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec);
	on(SIGALRM, count, 0);
	caught = 0;
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	printf("signal: SIGALRM caught %d time(s) once unblocked\n", caught);

	/* A periodic timer goes on after each signal is taken: three pauses,
	 * three SIGALRMs. */
	struct itimerval every_10ms = { { 0, 10000 }, { 0, 10000 } };
	show("setitimer(REAL, 10 ms, every 10 ms)", setitimer(ITIMER_REAL, &every_10ms, NULL));
	caught = 0;
	for (int i = 0; i < 3; i++)
		pause();
	printf("signal: three pause() calls ended by %d SIGALRM(s)\n", caught);
	show("setitimer(REAL, 0)", setitimer(ITIMER_REAL, &off, NULL));

	/* A value of 0 disarms, whatever the interval says: it is not kept. */
	struct itimerval interval_only = { { 1, 0 }, { 0, 0 } };
	show("setitimer(REAL, value 0, interval 1 s)", setitimer(ITIMER_REAL, &interval_only, NULL));
	getitimer(ITIMER_REAL, &cur);
	printf("signal: getitimer: value %ld s %ld us, interval %ld s %ld us\n", (long)cur.it_value.tv_sec,
	       (long)cur.it_value.tv_usec, (long)cur.it_interval.tv_sec, (long)cur.it_interval.tv_usec);
	on(SIGALRM, SIG_DFL, 0);
}

static void alternate_stack(int sig)
{
	(void)sig;
	int here;
	handler_stack = (uintptr_t)&here;
}

static void stacks(void)
{
	static char alt[65536];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) }, old;
	show("sigaltstack(64 KiB)", sigaltstack(&ss, &old));
	printf("signal: the old one was %s\n", old.ss_flags & SS_DISABLE ? "disabled" : "set");
	ss.ss_size = 1024;
	show("sigaltstack(1 KiB)", sigaltstack(&ss, NULL));
	ss.ss_size = sizeof(alt);
	on(SIGUSR2, alternate_stack, SA_ONSTACK);
	raise(SIGUSR2);
	yes("the handler ran on the alternate stack",
	    handler_stack >= (uintptr_t)alt && handler_stack < (uintptr_t)alt + sizeof(alt));
	on(SIGUSR2, alternate_stack, 0);
	raise(SIGUSR2);
	yes("without SA_ONSTACK it did not",
	    !(handler_stack >= (uintptr_t)alt && handler_stack < (uintptr_t)alt + sizeof(alt)));
}

/* What a handler finds: whether it runs on the alternate stack, what its
 * frame says of that stack, the stack as sigaltstack() then says it, and
 * what an attempt to change it says. */
static volatile int seen_on_alt, seen_frame_flags, seen_flags, seen_size_zero, seen_change;
static char alt_stack[65536];

/* The system call itself: musl refuses SS_ONSTACK before the kernel sees it. */
static long altstack(const stack_t *ss, stack_t *old)
{
	return syscall(SYS_sigaltstack, ss, old);
}

static void look_at_altstack(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)si;
	int here;
	stack_t cur, other = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	seen_on_alt = (uintptr_t)&here >= (uintptr_t)alt_stack && (uintptr_t)&here < (uintptr_t)alt_stack + sizeof(alt_stack);
	seen_frame_flags = ((ucontext_t *)ucv)->uc_stack.ss_flags;
	altstack(NULL, &cur);
	seen_flags = cur.ss_flags;
	seen_size_zero = cur.ss_size == 0;
	seen_change = altstack(&other, NULL) == 0 ? 0 : errno;
}

static void show_handler(void)
{
	printf("signal: the handler: on it %d, its frame says flags 0x%x, sigaltstack says 0x%x%s, changing it: %s\n",
	       seen_on_alt, (unsigned)seen_frame_flags, (unsigned)seen_flags, seen_size_zero ? " and size 0" : "",
	       seen_change ? strerror(seen_change) : "0");
}

/* sigaltstack's flags, as Linux takes them: SS_ONSTACK as 0 (old
 * programs pass it), SS_DISABLE, either with SS_AUTODISARM, which gives
 * each handler the stack to itself (off while the handler runs, back
 * after, though without the flag); nothing else. Changing it while on it
 * is EPERM. */
static void stack_flags(void)
{
	stack_t ss = { .ss_flags = SS_DISABLE }, old;
	struct sigaction sa = { .sa_sigaction = look_at_altstack, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	altstack(&ss, NULL);
	raise(SIGUSR2);
	show_handler();

	ss = (stack_t){ .ss_sp = alt_stack, .ss_size = sizeof(alt_stack), .ss_flags = SS_ONSTACK };
	show("sigaltstack(flags SS_ONSTACK)", altstack(&ss, NULL));
	altstack(NULL, &old);
	printf("signal: then its flags are 0x%x\n", (unsigned)old.ss_flags);
	ss.ss_flags = 0x10;
	show("sigaltstack(flags 0x10)", altstack(&ss, NULL));
	ss.ss_flags = SS_ONSTACK | SS_DISABLE;
	show("sigaltstack(flags SS_ONSTACK | SS_DISABLE)", altstack(&ss, NULL));
	raise(SIGUSR2);
	show_handler();

	ss.ss_flags = SS_AUTODISARM;
	show("sigaltstack(flags SS_AUTODISARM)", altstack(&ss, NULL));
	altstack(NULL, &old);
	printf("signal: then its flags are 0x%x\n", (unsigned)old.ss_flags);
	raise(SIGUSR2);
	show_handler();
	altstack(NULL, &old);
	printf("signal: after the handler: flags 0x%x, the same stack: %s\n", (unsigned)old.ss_flags,
	       old.ss_sp == alt_stack && old.ss_size == sizeof(alt_stack) ? "yes" : "no");

	ss.ss_flags = SS_DISABLE | SS_AUTODISARM;
	show("sigaltstack(flags SS_DISABLE | SS_AUTODISARM)", altstack(&ss, NULL));
	altstack(NULL, &old);
	printf("signal: then its flags are 0x%x, size %zu\n", (unsigned)old.ss_flags, old.ss_size);
	ss.ss_flags = SS_DISABLE;
	altstack(&ss, NULL);
	on(SIGUSR2, SIG_DFL, 0);
}

/* How a waited-for child is now, stopped and continued included. */
static void show_wait(const char *what, pid_t pid, int options)
{
	int status;
	pid_t got = waitpid(pid, &status, options);
	if (got != pid)
		show(what, got);
	else if (WIFSTOPPED(status))
		printf("signal: %s: stopped by signal %d\n", what, WSTOPSIG(status));
	else if (WIFCONTINUED(status))
		printf("signal: %s: continued\n", what);
	else if (WIFEXITED(status))
		printf("signal: %s: exited %d\n", what, WEXITSTATUS(status));
	else
		printf("signal: %s: killed by signal %d\n", what, WTERMSIG(status));
}

static void job_control(void)
{
	struct sigaction sa = { .sa_sigaction = with_info, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	caught = 0;
	int go[2];
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGSTOP);
		char c;                   /* once continued, it waits to be told: an end */
		read(go[0], &c, 1);       /* before waitpid(WCONTINUED) would be reported instead */
		_exit(4);
	}
	show_wait("a child sends itself SIGSTOP; waitpid(WUNTRACED)", pid, WUNTRACED);
	yes("SIGCHLD came, CLD_STOPPED", caught == 1 && last_code == CLD_STOPPED && child_status == SIGSTOP);
	show_wait("waitpid(WUNTRACED | WNOHANG) again: told once", pid, WUNTRACED | WNOHANG);
	show("kill(SIGCONT)", kill(pid, SIGCONT));
	show_wait("waitpid(WCONTINUED)", pid, WCONTINUED);
	write(go[1], "x", 1);
	close(go[0]);
	close(go[1]);
	show_wait("waitpid", pid, 0);

	pid = fork();
	if (pid == 0) {
		/* Linux drops SIGTSTP sent to an orphaned process group, which
		 * the test's may be (started from a script that has gone): a
		 * group of its own, whose parent is in another, is not one. */
		setpgid(0, 0);
		kill(getpid(), SIGTSTP);  /* by default, a stop too */
		_exit(5);
	}
	siginfo_t si = { .si_pid = 0 };
	show("waitid(P_PID, WSTOPPED)", waitid(P_PID, pid, &si, WSTOPPED));
	yes("si_code CLD_STOPPED, si_status SIGTSTP", si.si_code == CLD_STOPPED && si.si_status == SIGTSTP);
	show("kill(SIGKILL) to the stopped child", kill(pid, SIGKILL));
	show_wait("waitpid", pid, 0);

	/* SIGCONT continues a process even if it ignores the signal. */
	pid = fork();
	if (pid == 0) {
		signal(SIGCONT, SIG_IGN);
		raise(SIGSTOP);
		_exit(6);
	}
	show_wait("a child that ignores SIGCONT stops", pid, WUNTRACED);
	kill(pid, SIGCONT);
	show_wait("and goes on after SIGCONT", pid, 0);

	/* A stop signal with a handler only runs it; SIGSTOP cannot be caught. */
	on(SIGTSTP, count, 0);
	caught = 0;
	raise(SIGTSTP);
	show("SIGTSTP with a handler: caught", caught);
	struct sigaction stop = { .sa_handler = count };
	show("sigaction(SIGSTOP)", sigaction(SIGSTOP, &stop, NULL));
	signal(SIGTSTP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
}

/* POSIX's orphaned process groups: a group none of whose members has a
 * parent in another group of its session, a shell that could continue a
 * stopped member. So a group that becomes orphaned while a member is
 * stopped gets SIGHUP, then SIGCONT, and in an orphaned group SIGTSTP
 * stops nobody. A child B stops itself in the group of its parent A,
 * which then ends; B writes down what it sees in a pipe. */
static int events = -1;

static void note_hangup(int sig)
{
	(void)sig;
	write(events, "h", 1);
}

static void orphaned_groups(void)
{
	int fds[2];
	if (pipe(fds) != 0)
		return;
	pid_t a = fork();
	if (a == 0) {
		setpgid(0, 0);            /* a group that A holds: A's parent is in another */
		pid_t b = fork();
		if (b == 0) {
			events = fds[1];
			on(SIGHUP, note_hangup, 0);
			raise(SIGSTOP);
			write(events, "c", 1);            /* continued */
			kill(getpid(), SIGTSTP);          /* its group is orphaned now */
			write(events, "t", 1);
			_exit(0);
		}
		waitpid(b, NULL, WUNTRACED);
		_exit(0);                 /* and A's end orphans the group */
	}
	close(fds[1]);
	show_status("the parent of a stopped child ends", a);
	char seen[8] = "";
	size_t n = 0;
	struct pollfd in = { .fd = fds[0], .events = POLLIN };
	while (n < sizeof(seen) - 1 && poll(&in, 1, 5000) == 1 && read(fds[0], seen + n, 1) == 1)
		n++;
	printf("signal: the orphaned child saw (h: SIGHUP, c: continued, t: not stopped by SIGTSTP): %s\n", seen);
	kill(-a, SIGKILL);                /* if it is still stopped: the test has failed */
	close(fds[0]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	basics();
	ends();
	interruptions();
	fast_timer();
	stacks();
	stack_flags();
	job_control();
	orphaned_groups();
	printf("signal: done\n");
	return 0;
}
