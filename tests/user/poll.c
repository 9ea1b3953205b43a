/*
 * poll and ppoll, case by case, compared line for line with the same
 * binary on the host's Linux (tests/user/cases.h): what each descriptor
 * reports, waits that a child or a signal ends, timeouts and errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/select.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CASES_NAME "poll"
#include "cases.h"

/* poll's result and, if any, each entry's revents. */
static void show_poll(const char *what, struct pollfd *fds, int n, int timeout_ms)
{
	int ret = poll(fds, n, timeout_ms);
	if (ret < 0) {
		printf("poll: %s = -1 (%s)\n", what, strerror(errno));
		return;
	}
	printf("poll: %s = %d", what, ret);
	for (int i = 0; i < n; i++)
		printf(" [%d]=0x%x", i, fds[i].revents);
	printf("\n");
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* select's result and which of the descriptors below 8 each set holds after it. */
static void show_select(const char *what, int nfds, fd_set *rd, fd_set *wr, struct timeval *tv)
{
	int ret = select(nfds, rd, wr, NULL, tv);
	if (ret < 0) {
		printf("poll: %s = -1 (%s)\n", what, strerror(errno));
		return;
	}
	printf("poll: %s = %d, read", what, ret);
	for (int fd = 0; fd < 8; fd++)
		if (rd && FD_ISSET(fd, rd))
			printf(" %d", fd);
	printf(", write");
	for (int fd = 0; fd < 8; fd++)
		if (wr && FD_ISSET(fd, wr))
			printf(" %d", fd);
	printf("\n");
}

/* select and pselect, on a pipe whose read end is r[0] (a byte waits in it). */
static void selects(int r[2], const sigset_t *none)
{
	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(r[0], &rd);
	FD_SET(r[1], &wr);
	struct timeval zero = { 0, 0 };
	show_select("select(a byte waits, room to write)", r[1] + 1, &rd, &wr, &zero);
	char c;
	read(r[0], &c, 1);
	FD_ZERO(&rd);
	FD_SET(r[0], &rd);
	show_select("select(the pipe empty, read only)", r[0] + 1, &rd, NULL, &zero);
	struct timeval tenth = { 0, 100000 };
	FD_SET(r[0], &rd);
	show_select("select(the pipe empty, 100 ms)", r[0] + 1, &rd, NULL, &tenth);
	yes("the time left is written back: all of it used", tenth.tv_sec == 0 && tenth.tv_usec == 0);
	struct timeval carried = { 0, 1500000 };   /* 1.5 s of microseconds: Linux carries them over */
	FD_SET(r[1], &wr);
	show_select("select(usec 1500000, room to write)", r[1] + 1, NULL, &wr, &carried);
	struct timeval negative = { -1, 0 };
	FD_SET(r[0], &rd);
	show_select("select(a negative timeout)", r[0] + 1, &rd, NULL, &negative);
	show_select("select(nfds -1)", -1, NULL, NULL, &zero);
	int closed = dup(r[0]);
	close(closed);
	FD_ZERO(&rd);
	FD_SET(closed, &rd);
	show_select("select(a closed descriptor)", closed + 1, &rd, NULL, &zero);
	show_select("select(no sets, 10 ms)", 0, NULL, NULL, &(struct timeval){ 0, 10000 });
	show("select(a bad set address)", select(4, (fd_set *)8, NULL, NULL, &zero));
	close(r[1]);
	FD_ZERO(&rd);
	FD_SET(r[0], &rd);
	show_select("select(the writer gone: the end of file is readable)", r[0] + 1, &rd, NULL, &zero);

	/* pselect: its mask holds while it waits, as ppoll's. */
	sigset_t block_alarm, old;
	sigemptyset(&block_alarm);
	sigaddset(&block_alarm, SIGALRM);
	sigprocmask(SIG_BLOCK, &block_alarm, &old);
	int q[2];
	pipe(q);
	FD_ZERO(&rd);
	FD_SET(q[0], &rd);
	ualarm(20000, 0);
	struct timespec tenth_ts = { 0, 100000000 };
	show("pselect(SIGALRM blocked, 100 ms)", pselect(q[0] + 1, &rd, NULL, NULL, &tenth_ts, NULL));
	FD_SET(q[0], &rd);
	show("pselect(a mask that lets the pending SIGALRM in)", pselect(q[0] + 1, &rd, NULL, NULL, NULL, none));
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	yes("the old mask is back after it", sigismember(&now, SIGALRM));
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int p[2];
	show("pipe", pipe(p));
	struct pollfd both[2] = { { p[0], POLLIN, 0 }, { p[1], POLLOUT, 0 } };
	show_poll("an empty pipe: read end, write end", both, 2, 0);
	write(p[1], "x", 1);
	show_poll("one byte in it", both, 2, 0);
	struct pollfd out_only = { p[0], POLLOUT, 0 };
	show_poll("the read end asked only for POLLOUT", &out_only, 1, 0);
	char c;
	read(p[0], &c, 1);

	/* A child writes after a while: the wait ends with it. */
	pid_t pid = fork();
	if (pid == 0) {
		usleep(50000);
		write(p[1], "y", 1);
		_exit(0);
	}
	struct pollfd in = { p[0], POLLIN, 0 };
	show_poll("wait for a child's write", &in, 1, 5000);
	show_status("the writer", pid);
	read(p[0], &c, 1);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	show_poll("nothing comes: a 100 ms timeout", &in, 1, 100);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	yes("it waited at least 100 ms", ms >= 100);

	close(p[1]);
	show_poll("the writer closed: hang-up", &in, 1, 1000);
	int q[2];
	pipe(q);
	close(q[0]);
	struct pollfd w = { q[1], POLLOUT, 0 };
	show_poll("the reader closed: error", &w, 1, 1000);

	struct pollfd odd[3] = { { -1, POLLIN, 0 }, { 99, POLLIN, 0 }, { p[0], 0, 0 } };
	show_poll("fd -1, a closed fd, no events asked", odd, 3, 0);
	int f = open("/dev/null", O_RDWR);
	struct pollfd file = { f, POLLIN | POLLOUT, 0 };
	show_poll("/dev/null", &file, 1, 0);
	show_poll("no descriptors, 10 ms", NULL, 0, 10);
	show("poll(a bad address)", poll((struct pollfd *)8, 1, 0));
	show("poll(more than RLIMIT_NOFILE)", poll(NULL, 1 << 30, 0));

	/* A signal ends a wait with EINTR, SA_RESTART or not. */
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigaction(SIGALRM, &sa, NULL);
	int r[2];
	pipe(r);
	struct pollfd never = { r[0], POLLIN, 0 };
	ualarm(50000, 0);
	show_poll("SIGALRM during an endless wait", &never, 1, -1);

	/* ppoll: its mask holds while it waits. */
	sigset_t block_alarm, old;
	sigemptyset(&block_alarm);
	sigaddset(&block_alarm, SIGALRM);
	sigprocmask(SIG_BLOCK, &block_alarm, &old);
	ualarm(20000, 0);
	struct timespec tenth = { 0, 100000000 };
	show("ppoll(SIGALRM blocked, 100 ms)", ppoll(&never, 1, &tenth, NULL));
	sigset_t none;
	sigemptyset(&none);
	show("ppoll(a mask that lets the pending SIGALRM in)", ppoll(&never, 1, NULL, &none));
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	yes("the old mask is back after it", sigismember(&now, SIGALRM));
	sigprocmask(SIG_SETMASK, &old, NULL);
	struct timespec bad = { 0, 2000000000 };
	show("ppoll(nanoseconds out of range)", ppoll(&never, 1, &bad, NULL));
	struct timespec zero = { 0, 0 };
	write(r[1], "z", 1);
	show("ppoll(a byte waits, timeout 0)", ppoll(&never, 1, &zero, NULL));
	selects(r, &none);
	printf("poll: done\n");
	return 0;
}
