/*
 * Threads and futexes, case by case ("thread: what = result"), compared
 * line for line with the same binary on the host's Linux
 * (tests/user/cases.h): musl's pthreads on clone(), futex() raw, signals
 * to threads, exit and exit_group, execve from a thread, and that a
 * change of protection reaches a thread running on another CPU at once.
 * A case that could end the process runs in a child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

/* Linux's futex operations (musl has no <linux/futex.h>). */
enum {
	FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_CMP_REQUEUE = 4, FUTEX_WAIT_BITSET = 9, FUTEX_WAKE_BITSET = 10,
	FUTEX_PRIVATE_FLAG = 128, FUTEX_CLOCK_REALTIME = 256,
	FUTEX_WAIT_PRIVATE = FUTEX_WAIT | FUTEX_PRIVATE_FLAG, FUTEX_WAKE_PRIVATE = FUTEX_WAKE | FUTEX_PRIVATE_FLAG,
	FUTEX_CMP_REQUEUE_PRIVATE = FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG,
	FUTEX_WAKE_BITSET_PRIVATE = FUTEX_WAKE_BITSET | FUTEX_PRIVATE_FLAG,
};
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

#define CASES_NAME "thread"
#include "cases.h"

static long futex(void *uaddr, int op, uint32_t val, const struct timespec *timeout, void *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	nanosleep(&ts, NULL);
}

static void *return_arg_plus_one(void *arg)
{
	return (void *)((intptr_t)arg + 1);
}

static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *count_to_10000(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&counter_lock);
		counter++;
		pthread_mutex_unlock(&counter_lock);
	}
	return NULL;
}

static void create_and_join(void)
{
	pthread_t t;
	void *ret = NULL;
	show("pthread_create", pthread_create(&t, NULL, return_arg_plus_one, (void *)41));
	show("pthread_join", pthread_join(t, &ret));
	show("the thread's return value", (long)(intptr_t)ret);

	pthread_t many[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&many[i], NULL, count_to_10000, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(many[i], NULL);
	show("4 threads x 10000 locked increments", counter);

	int joined = 0;
	for (int i = 0; i < 50; i++) {
		pthread_t each;
		if (pthread_create(&each, NULL, return_arg_plus_one, (void *)(intptr_t)i) == 0 &&
		    pthread_join(each, &ret) == 0 && (intptr_t)ret == i + 1)
			joined++;
	}
	show("50 threads created and joined one after another", joined);
}

static pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go, waiting, woke;

static void *wait_for_go(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cond_lock);
	waiting++;
	while (!go)
		pthread_cond_wait(&cond, &cond_lock);
	woke++;
	pthread_mutex_unlock(&cond_lock);
	return NULL;
}

static void condition_variables(void)
{
	pthread_t t[5];
	for (int i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, wait_for_go, NULL);
	for (int ready = 0; ready < 5;) {
		pthread_mutex_lock(&cond_lock);
		ready = waiting;
		pthread_mutex_unlock(&cond_lock);
		sleep_ms(1);
	}
	pthread_mutex_lock(&cond_lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&cond_lock);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	show("a broadcast wakes 5 waiters", woke);

	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += 20 * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&cond_lock);
	show_error("pthread_cond_timedwait, nobody signals", pthread_cond_timedwait(&cond, &cond_lock, &deadline));
	pthread_mutex_unlock(&cond_lock);
}

static __thread int per_thread = 7;
static pid_t thread_tid, thread_pid;

static void *ids_and_tls(void *arg)
{
	(void)arg;
	thread_tid = gettid_();
	thread_pid = getpid();
	per_thread = 99;
	return NULL;
}

static void ids(void)
{
	pthread_t t;
	pthread_create(&t, NULL, ids_and_tls, NULL);
	pthread_join(t, NULL);
	yes("a thread's getpid() is the process's", thread_pid == getpid());
	yes("its gettid() is its own", thread_tid != getpid() && thread_tid > 0);
	yes("the main thread's gettid() is its getpid()", gettid_() == getpid());
	show("the main thread's __thread variable, after the thread set its own", per_thread);
	show("set_tid_address returns the caller's tid == gettid", syscall(SYS_set_tid_address, NULL) == gettid_());
	show("tkill(0, 0)", syscall(SYS_tkill, 0, 0));
	show("tgkill(getpid(), gettid(), 0)", syscall(SYS_tgkill, getpid(), gettid_(), 0));
	show("tgkill(getpid() + 1000000, gettid(), 0)", syscall(SYS_tgkill, getpid() + 1000000, gettid_(), 0));
	show("tgkill with the ended thread's tid", syscall(SYS_tgkill, getpid(), thread_tid, 0));
	show("tgkill(-1, 1, 0)", syscall(SYS_tgkill, -1, 1, 0));
}

static volatile sig_atomic_t handled_by_tid, handled;
static volatile int spin_stop;

static void note_tid(int sig)
{
	(void)sig;
	handled_by_tid = gettid_();
	handled++;
}

/* A thread that, given a set, unblocks it; then waits to be told to stop. */
static void *wait_until_stopped(void *arg)
{
	if (arg)
		pthread_sigmask(SIG_UNBLOCK, arg, NULL);
	thread_tid = gettid_();
	while (!spin_stop)
		sleep_ms(1);
	return NULL;
}

static pthread_t start_waiter(sigset_t *unblock)
{
	pthread_t t;
	thread_tid = 0;
	spin_stop = 0;
	handled = 0;
	pthread_create(&t, NULL, wait_until_stopped, unblock);
	while (!thread_tid)
		sleep_ms(1);
	return t;
}

static void signals_to_threads(void)
{
	struct sigaction sa = { .sa_handler = note_tid };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	pthread_t t = start_waiter(NULL);
	show("pthread_kill(thread, SIGUSR1)", pthread_kill(t, SIGUSR1));
	while (!handled)
		sleep_ms(1);
	yes("the thread itself ran the handler", handled_by_tid == thread_tid);
	spin_stop = 1;
	pthread_join(t, NULL);

	/* Main blocks SIGUSR2 (the thread inherits that, and unblocks it): a
	 * signal to the process goes to the thread that does not block it. */
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	t = start_waiter(&usr2);
	kill(getpid(), SIGUSR2);
	while (!handled)
		sleep_ms(1);
	yes("kill() to the process: the thread that does not block it takes it", handled_by_tid == thread_tid);
	spin_stop = 1;
	pthread_join(t, NULL);
	sigset_t pending;
	sigpending(&pending);
	show("SIGUSR2 still pending afterwards", sigismember(&pending, SIGUSR2));

	/* tgkill to the main thread, which blocks it: pending for it alone. */
	t = start_waiter(&usr2);
	syscall(SYS_tgkill, getpid(), gettid_(), SIGUSR2);
	sleep_ms(20);
	show("tgkill to a thread that blocks it: handled elsewhere", handled);
	sigpending(&pending);
	show("pending for the main thread", sigismember(&pending, SIGUSR2));
	spin_stop = 1;
	pthread_join(t, NULL);
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
	yes("unblocked: the main thread ran the handler", handled == 1 && handled_by_tid == gettid_());
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

static void *exit_group_7(void *arg)
{
	(void)arg;
	exit(7);                          /* musl's exit(): exit_group */
}

static void *sys_exit_3_later(void *arg)
{
	(void)arg;
	sleep_ms(30);
	syscall(SYS_exit, 3);             /* this thread only */
	return NULL;
}

static volatile int *volatile nowhere = (int *)16;

static void *fault(void *arg)
{
	(void)arg;
	*nowhere = 1;
	return NULL;
}

static void *sleep_long(void *arg)
{
	(void)arg;
	for (;;)
		sleep_ms(1000);
	return NULL;
}

static char *exec_argv[4];

static void *exec_self(void *arg)
{
	(void)arg;
	sleep_ms(10);
	execv(exec_argv[0], exec_argv);
	_exit(99);
}

static void ends(const char *self)
{
	pthread_t t;
	pid_t pid = fork();
	if (pid == 0) {
		pthread_create(&t, NULL, exit_group_7, NULL);
		for (;;)
			sleep_ms(1000);
	}
	show_status("a thread calls exit(7) while main sleeps", pid);

	pid = fork();
	if (pid == 0) {
		pthread_create(&t, NULL, sys_exit_3_later, NULL);
		pthread_exit(NULL);       /* main goes first: the process lives on */
	}
	show_status("main calls pthread_exit, the other thread SYS_exit(3)", pid);

	pid = fork();
	if (pid == 0) {
		pthread_create(&t, NULL, sleep_long, NULL);
		pthread_create(&t, NULL, fault, NULL);
		for (;;)
			sleep_ms(1000);
	}
	show_status("a thread faults", pid);

	pid = fork();
	if (pid == 0) {
		pthread_create(&t, NULL, sleep_long, NULL);
		pthread_create(&t, NULL, sleep_long, NULL);
		for (;;)
			pause();
	}
	sleep_ms(50);
	kill(pid, SIGTERM);
	show_status("SIGTERM to a process of three threads", pid);

	/* execve from a thread that is not the first: the others go, the pid stays. */
	pid = fork();
	if (pid == 0) {
		static char pidstr[16];
		snprintf(pidstr, sizeof(pidstr), "%d", getpid());
		exec_argv[0] = (char *)self;
		exec_argv[1] = "exec-child";
		exec_argv[2] = pidstr;
		pthread_create(&t, NULL, sleep_long, NULL);
		pthread_create(&t, NULL, exec_self, NULL);
		for (;;)
			sleep_ms(1000);
	}
	show_status("execve from a second thread (the program checks its pid, exits 5)", pid);

	/* posix_spawn: musl clones with CLONE_VM | CLONE_VFORK. */
	char *argv[] = { (char *)self, "spawn-child", NULL };
	int err = posix_spawn(&pid, self, NULL, NULL, argv, NULL);
	show_error("posix_spawn", err);
	if (!err)
		show_status("the spawned program", pid);
}

/* Raw futex calls and their errors. */
static uint32_t word, word2;

struct waiter {
	uint32_t *on;
	long ret;
};

static void *futex_waiter(void *arg)
{
	struct waiter *w = arg;
	__atomic_fetch_add(&waiting, 1, __ATOMIC_SEQ_CST);
	w->ret = futex(w->on, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void wait_for_sleepers(int n)
{
	while (__atomic_load_n(&waiting, __ATOMIC_SEQ_CST) < n)
		sleep_ms(1);
	sleep_ms(20);                     /* from the count to the sleep itself */
}

static void futexes(void)
{
	struct timespec ms10 = { 0, 10000000 };
	show("FUTEX_WAIT, the word differs", futex(&word, FUTEX_WAIT, 1, NULL, NULL, 0));
	show("FUTEX_WAIT with a 10 ms timeout", futex(&word, FUTEX_WAIT, 0, &ms10, NULL, 0));
	show("FUTEX_WAKE, nobody waits", futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0));
	show("FUTEX_WAIT, misaligned", futex((char *)&word + 1, FUTEX_WAIT, 0, NULL, NULL, 0));
	show("FUTEX_WAIT at address 8", futex((void *)8, FUTEX_WAIT, 0, NULL, NULL, 0));
	show("FUTEX_WAIT, a kernel address", futex((void *)0xffffffff80100000UL, FUTEX_WAIT, 0, NULL, NULL, 0));
	show("FUTEX_WAKE_PRIVATE at address 8", futex((void *)8, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	show("FUTEX_WAIT_BITSET, bitset 0", futex(&word, FUTEX_WAIT_BITSET, 0, NULL, NULL, 0));
	show("FUTEX_WAKE | FUTEX_CLOCK_REALTIME", futex(&word, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0));
	show("op 99", futex(&word, 99, 0, NULL, NULL, 0));
	/* A word on a page nobody has touched yet: it reads 0. */
	uint32_t *fresh = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show("FUTEX_WAIT on an untouched page, the word differs", futex(fresh, FUTEX_WAIT, 1, NULL, NULL, 0));
	show("FUTEX_WAIT on another, 10 ms", futex(fresh + 1024, FUTEX_WAIT, 0, &ms10, NULL, 0));
	show("FUTEX_CMP_REQUEUE on a third, the word differs",
	     futex(fresh + 2048, FUTEX_CMP_REQUEUE, 1, (void *)1, &word, 1));
	munmap(fresh, 3 * 4096);
	struct timespec bad = { 0, 1000000000 };
	show("FUTEX_WAIT, tv_nsec 1e9", futex(&word, FUTEX_WAIT, 0, &bad, NULL, 0));
	show("FUTEX_WAIT, a timeout at address 8", futex(&word, FUTEX_WAIT, 0, (void *)8, NULL, 0));
	struct timespec past = { 1, 0 };
	show("FUTEX_WAIT_BITSET, an absolute deadline long past",
	     futex(&word, FUTEX_WAIT_BITSET, 0, &past, NULL, FUTEX_BITSET_MATCH_ANY));
	show("FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, a deadline long past",
	     futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &past, NULL, FUTEX_BITSET_MATCH_ANY));

	/* Two sleepers on word: one woken, one moved to word2, then woken there. */
	struct waiter w[2] = { { &word, -9 }, { &word, -9 } };
	pthread_t t[2];
	waiting = 0;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, futex_waiter, &w[i]);
	wait_for_sleepers(2);
	show("FUTEX_CMP_REQUEUE, the word differs", futex(&word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &word2, 5));
	show("FUTEX_CMP_REQUEUE, wake 1 and move 1", futex(&word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &word2, 0));
	sleep_ms(20);
	show("FUTEX_WAKE on word: nobody left there", futex(&word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	show("FUTEX_WAKE on word2: the moved one", futex(&word2, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	show("both waits returned 0", w[0].ret == 0 && w[1].ret == 0);

	/* Bitsets: a wake for bit 2 passes over a waiter for bit 1. */
	waiting = 0;
	w[0] = (struct waiter){ &word, -9 };
	pthread_create(&t[0], NULL, futex_waiter, &w[0]);
	wait_for_sleepers(1);
	show("FUTEX_WAKE_BITSET, bit 2, the waiter wants any",
	     futex(&word, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 2));
	pthread_join(t[0], NULL);

	/* A shared futex in a MAP_SHARED page: the parent's wake reaches the child. */
	uint32_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	if (pid == 0) {
		long ret = futex(shared, FUTEX_WAIT, 0, NULL, NULL, 0);
		_exit(ret == 0 && *shared == 1 ? 0 : 1);
	}
	sleep_ms(50);
	__atomic_store_n(shared, 1, __ATOMIC_SEQ_CST);
	long woken = futex(shared, FUTEX_WAKE, 1, NULL, NULL, 0);
	show("FUTEX_WAKE across fork, on a shared page", woken);
	show_status("the child that waited", pid);
	munmap(shared, 4096);
}

/* A thread writes a page in a loop on another CPU while main takes its
 * write right away (mprotect) or the page itself (munmap): the write must
 * fault at once, whatever that CPU's TLB held. */
static volatile int *page;
static volatile long writes;

static void *write_forever(void *arg)
{
	(void)arg;
	for (;;) {
		*page = 1;
		writes++;
	}
	return NULL;
}

static void take_away(const char *what, int (*how)(void *addr))
{
	pid_t pid = fork();
	if (pid == 0) {
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pthread_t t;
		pthread_create(&t, NULL, write_forever, NULL);
		while (writes < 1000)
			;
		how((void *)page);
		sleep_ms(200);            /* the writer is dead by now, and this process with it */
		_exit(0);
	}
	show_status(what, pid);
}

static void pin_to(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int wake_pipe[2];

/* On CPU 1: a write to the page, a sleep while its CPU idles, a write again. */
static void *write_sleep_write(void *arg)
{
	(void)arg;
	pin_to(1);
	page[0] = 1;
	char c;
	read(wake_pipe[0], &c, 1);
	page[0] = 2;
	return NULL;
}

/* The same as take_away(), but the writer sleeps on an idle CPU while its
 * page is taken away: the kernel must not leave that CPU's TLB behind
 * (kernel/mm/mm.c: a lazy CPU flushes before it runs the program again). */
static void take_away_from_sleeper(const char *what, int (*how)(void *addr))
{
	pid_t pid = fork();
	if (pid == 0) {
		pin_to(0);
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pipe(wake_pipe);
		pthread_t t;
		pthread_create(&t, NULL, write_sleep_write, NULL);
		sleep_ms(100);            /* it wrote, and sleeps */
		how((void *)page);
		write(wake_pipe[1], "w", 1);
		pthread_join(t, NULL);
		_exit(0);                 /* its second write went through */
	}
	show_status(what, pid);
}

static int protect_read(void *addr)
{
	return mprotect(addr, 4096, PROT_READ);
}

static int unmap(void *addr)
{
	return munmap(addr, 4096);
}

static void *burn_20ms(void *arg)
{
	(void)arg;
	struct timespec start, now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	while ((now.tv_sec - start.tv_sec) * 1000000000L + now.tv_nsec - start.tv_nsec < 20000000);
	return NULL;
}

static long ns(struct timespec ts)
{
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void cpu_clocks(void)
{
	struct timespec before, after, mine;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &before);
	pthread_t t;
	pthread_create(&t, NULL, burn_20ms, NULL);
	pthread_join(t, NULL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &after);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mine);
	yes("the process clock counts an ended thread's 20 ms", ns(after) - ns(before) >= 20000000);
	yes("the process clock is ahead of the main thread's", ns(after) > ns(mine) + 20000000);
	struct rusage self, thread;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_THREAD, &thread);
	long self_us = self.ru_utime.tv_sec * 1000000L + self.ru_utime.tv_usec + self.ru_stime.tv_sec * 1000000L +
		       self.ru_stime.tv_usec;
	long thread_us = thread.ru_utime.tv_sec * 1000000L + thread.ru_utime.tv_usec +
			 thread.ru_stime.tv_sec * 1000000L + thread.ru_stime.tv_usec;
	yes("RUSAGE_SELF has at least 20 ms more than RUSAGE_THREAD", self_us >= thread_us + 20000);

	pthread_create(&t, NULL, sleep_long, NULL);
	clockid_t clock;
	show("pthread_getcpuclockid", pthread_getcpuclockid(t, &clock));
	struct timespec its;
	show("clock_gettime on another thread's clock", clock_gettime(clock, &its));
}

/* Three threads on one file in a directory of their own: one pwrite()s it
 * from a fresh 1 MiB mapping, never touched, so that every page of the
 * copy faults; one maps the file shared and unmaps it, over and over; one
 * lists the directory into a fresh page. A kernel that copies from user
 * memory while holding a lock its mmap takes under the address space's
 * lock (the file's data lock), or holds a global lock (the tree's) across
 * a copy out, deadlocks here on the first round, and then every path
 * lookup on the machine hangs behind it. */
#define RACE_FILE_SIZE (1 << 20)
#define RACE_ROUNDS 20

static int race_fd, race_dir;
static atomic_int race_done;
static long race_written, race_listed, race_mapped;

static void *untouched(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void *pwrite_untouched(void *arg)
{
	(void)arg;
	for (int round = 0; round < RACE_ROUNDS; round++) {
		char *buf = untouched(RACE_FILE_SIZE);
		if (buf && pwrite(race_fd, buf, RACE_FILE_SIZE, 0) == RACE_FILE_SIZE)
			race_written++;
		munmap(buf, RACE_FILE_SIZE);
	}
	atomic_store(&race_done, 1);
	return NULL;
}

static void *mmap_munmap_loop(void *arg)
{
	(void)arg;
	while (!atomic_load(&race_done)) {
		void *p = mmap(NULL, RACE_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, race_fd, 0);
		if (p != MAP_FAILED && munmap(p, RACE_FILE_SIZE) == 0)
			race_mapped++;
	}
	return NULL;
}

/* Each listing into a page just mapped: ".", ".." and "file", 3 records. */
static void *getdents_untouched(void *arg)
{
	(void)arg;
	while (!atomic_load(&race_done)) {
		char *buf = untouched(4096);
		lseek(race_dir, 0, SEEK_SET);
		long n = buf ? syscall(SYS_getdents64, race_dir, buf, 4096) : -1;
		int records = 0;
		for (long at = 0; at < n; records++)
			at += *(unsigned short *)(buf + at + 16);     /* d_reclen */
		if (records == 3)
			race_listed++;
		else
			race_listed = -1000000;
		munmap(buf, 4096);
	}
	return NULL;
}

static void copies_under_locks(void)
{
	char dir[] = "/tmp/thread-race-XXXXXX", path[64];
	if (!mkdtemp(dir)) {
		printf(CASES_NAME ": mkdtemp: %s\n", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	race_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	race_dir = open(dir, O_RDONLY | O_DIRECTORY);
	char *full = malloc(RACE_FILE_SIZE);
	memset(full, 'x', RACE_FILE_SIZE);
	show("pwrite 1 MiB of 'x' first", pwrite(race_fd, full, RACE_FILE_SIZE, 0));

	pthread_t t[3];
	pthread_create(&t[0], NULL, pwrite_untouched, NULL);
	pthread_create(&t[1], NULL, mmap_munmap_loop, NULL);
	pthread_create(&t[2], NULL, getdents_untouched, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	show("pwrite from untouched memory while mmap loops: full writes", race_written);
	yes("the mmap/munmap loop ran", race_mapped > 0);
	yes("every getdents64 into an untouched page listed ., .. and file", race_listed >= 0);
	show("pread it back", pread(race_fd, full, RACE_FILE_SIZE, 0));
	long zeros = 0;
	for (long i = 0; i < RACE_FILE_SIZE; i++)
		zeros += full[i] == 0;
	show("bytes read back that are zeros, as the untouched memory was", zeros);
	struct stat st;
	show("stat of the file afterwards", stat(path, &st));
	char *two = untouched(2 * 4096);
	mprotect(two + 4096, 4096, PROT_NONE);
	show("pwrite from an untouched page and a PROT_NONE one", pwrite(race_fd, two, 2 * 4096, 0));
	munmap(two, 2 * 4096);
	free(full);
	close(race_fd);
	close(race_dir);
	unlink(path);
	rmdir(dir);
}

/* getdents64 into a buffer whose last 100 bytes before a PROT_NONE page
 * hold 4 records (every name here makes a 24-byte record): those count,
 * and the next call goes on after them. */
static void getdents_that_faults_part_way(void)
{
	char dir[] = "/tmp/thread-list-XXXXXX", path[64];
	if (!mkdtemp(dir))
		return;
	for (int i = 0; i < 50; i++) {
		snprintf(path, sizeof(path), "%s/f%03d", dir, i);
		close(open(path, O_WRONLY | O_CREAT, 0600));
	}
	char *pages = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(pages + 4096, 4096, PROT_NONE);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long first = syscall(SYS_getdents64, fd, pages + 4096 - 100, 4096);
	show("getdents64 into 100 bytes before a PROT_NONE page", first);
	long rest = 0, n;
	while ((n = syscall(SYS_getdents64, fd, pages, 4096)) > 0)
		rest += n;
	show("the calls after list the other records: their bytes", rest);
	close(fd);
	munmap(pages, 2 * 4096);
	for (int i = 0; i < 50; i++) {
		snprintf(path, sizeof(path), "%s/f%03d", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

/* pipe2 whose copy-out of the two descriptors fails: they must never have
 * been open, even for a moment (another thread could have used or reused
 * them, and pipe2's undoing would close the other thread's file). Linux
 * copies them out before it installs them. */
static atomic_int pipe2_done;
static int pipe2_lowest;
static long pipe2_seen;

static void *watch_descriptors(void *arg)
{
	(void)arg;
	while (!atomic_load(&pipe2_done))
		if (fcntl(pipe2_lowest, F_GETFD) >= 0 || fcntl(pipe2_lowest + 1, F_GETFD) >= 0)
			pipe2_seen++;
	return NULL;
}

static void pipe2_to_a_bad_address(void)
{
	pipe2_lowest = dup(0);
	close(pipe2_lowest);
	pthread_t t;
	pthread_create(&t, NULL, watch_descriptors, NULL);
	long ret = 0;
	for (int i = 0; i < 2000; i++)
		ret = syscall(SYS_pipe2, (int *)8, 0);
	show("pipe2 to address 8, 2000 times", ret);
	atomic_store(&pipe2_done, 1);
	pthread_join(t, NULL);
	yes("another thread never saw its descriptors open", pipe2_seen == 0);
	int next = dup(0);
	yes("the lowest free descriptor is the same after", next == pipe2_lowest);
	close(next);
}

static void clone_errors(void)
{
	show("clone(CLONE_THREAD) without CLONE_SIGHAND", syscall(SYS_clone, CLONE_THREAD | CLONE_VM, 0, 0, 0, 0));
	show("clone(CLONE_SIGHAND) without CLONE_VM", syscall(SYS_clone, CLONE_SIGHAND, 0, 0, 0, 0));
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "exec-child") == 0) {
		printf(CASES_NAME ": after execve from a thread: the pid stayed: %s\n",
		       getpid() == atoi(argv[2]) ? "yes" : "no");
		return 5;
	}
	if (argc == 2 && strcmp(argv[1], "spawn-child") == 0)
		return 6;
	setvbuf(stdout, NULL, _IONBF, 0);     /* no buffered lines doubled by fork */
	create_and_join();
	condition_variables();
	ids();
	signals_to_threads();
	futexes();
	ends(argv[0]);
	take_away("mprotect(PROT_READ) while another thread writes", protect_read);
	take_away("munmap while another thread writes", unmap);
	take_away_from_sleeper("mprotect(PROT_READ) while the writer sleeps on another CPU", protect_read);
	take_away_from_sleeper("munmap while the writer sleeps on another CPU", unmap);
	cpu_clocks();
	clone_errors();
	copies_under_locks();
	getdents_that_faults_part_way();
	pipe2_to_a_bad_address();
	return 0;
}
