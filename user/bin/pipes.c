/* Pipes and descriptors from ring 3, in one process (no fork yet): pipe,
 * write, read, dup, dup2, fcntl, close. Each line says what was tried and
 * whether it went as on Linux, where this program gives the same output. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* Non-blocking writes of a page at a time until the pipe is full: the bytes it took. */
static long fill(int fd)
{
	static char page[4096];
	long total = 0, n;
	while ((n = write(fd, page, sizeof(page))) > 0)
		total += n;
	return n < 0 && errno == EAGAIN ? total : -1;
}

int main(void)
{
	int p[2], q[2];
	char buf[4096];
	struct stat st;

	check(pipe(p) == 0 && p[0] == 3 && p[1] == 4, "pipe() gives descriptors 3 and 4, the lowest free");
	check(write(p[1], "through the pipe", 16) == 16, "write 16 bytes into it");
	check(read(p[0], buf, sizeof(buf)) == 16 && memcmp(buf, "through the pipe", 16) == 0,
	      "read the same 16 bytes back");
	check(fstat(p[0], &st) == 0 && S_ISFIFO(st.st_mode), "fstat says it is a FIFO");

	check(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0 && (fcntl(p[0], F_GETFL) & O_NONBLOCK),
	      "F_SETFL sets O_NONBLOCK, F_GETFL shows it");
	check(read(p[0], buf, 1) == -1 && errno == EAGAIN, "an empty non-blocking pipe says EAGAIN");
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	check(fill(p[1]) == 65536, "a full pipe holds 65536 bytes, then says EAGAIN");
	long drained = 0, n;
	while ((n = read(p[0], buf, sizeof(buf))) > 0)
		drained += n;
	check(drained == 65536, "and gives back all 65536");

	fflush(stdout);                   /* stdout is about to go elsewhere for a moment */
	int saved = dup(1);
	int onto = dup2(p[1], 1);
	long written = write(1, "via stdout", 10);
	dup2(saved, 1);
	close(saved);
	check(saved == 5, "dup(1) gives 5, the lowest free");
	check(onto == 1 && written == 10, "dup2 puts the pipe on stdout, and a write to 1 goes in");
	check(read(p[0], buf, sizeof(buf)) == 10 && memcmp(buf, "via stdout", 10) == 0,
	      "it comes out of the pipe");

	check(fcntl(p[0], F_GETFD) == 0, "close-on-exec is off at first");
	check(fcntl(p[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(p[0], F_GETFD) == FD_CLOEXEC,
	      "F_SETFD turns it on");
	int high = fcntl(p[0], F_DUPFD, 10);
	check(high >= 10 && fcntl(high, F_GETFD) == 0,
	      "F_DUPFD from 10 gives 10 or more, without close-on-exec");
	close(high);
	check(close(high) == -1 && errno == EBADF, "closing it again says EBADF");

	close(p[1]);
	check(read(p[0], buf, sizeof(buf)) == 0, "with the writing end closed, a read finds the end");
	close(p[0]);

	signal(SIGPIPE, SIG_IGN);         /* on Linux, else the write below kills us */
	check(pipe2(q, O_CLOEXEC) == 0 && q[0] == 3 && fcntl(q[1], F_GETFD) == FD_CLOEXEC,
	      "pipe2 with O_CLOEXEC reuses 3 and 4, close-on-exec");
	close(q[0]);
	check(write(q[1], "x", 1) == -1 && errno == EPIPE, "with the reading end closed, a write says EPIPE");
	close(q[1]);

	printf("pipes: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
