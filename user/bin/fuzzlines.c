/*
 * fuzzlines [SECONDS [SEED...]]: random input lines for the shell and random
 * writes to the scheduler's tunables, to find what a mistyped line or a
 * bad value can do that it should not: crash the shell, hang it, leave a
 * tunable at a value outside its range, or make the kernel warn.
 *
 * For SECONDS (default 20) per seed it alternates:
 *   - a line of shell words, operators, quotes and stray bytes (from a
 *     seeded generator), run as `sh -c LINE` with its input from
 *     /dev/null and its output thrown away, in /tmp/fuzzlines; the shell
 *     may refuse the line (status 2) or run it, but must not die of a
 *     signal, and must end within 5 s (a line that runs `yes` for ever is
 *     stopped, and counted, not failed). What the line started in the
 *     background is stopped with it: it belongs to that line, and left
 *     running it would make the next lines' outcome depend on timing;
 *   - a value written to a tunable of /proc/sys/kernel: a number in or out
 *     of range (decimal, or hex with 0x, as Linux reads it), or words;
 *     reading it back must give either what was written (the write said
 *     so) or what was there before (it said EINVAL).
 * Then the tunables get their first values back, `sh -c "echo alive"` must
 * print alive (through a pipe: the lines may have filled /tmp, which is
 * no fault), and one line per seed says what happened:
 *
 *   RESULT name=fuzzlines seed=S lines=N refused=R timeouts=T shell_crashes=0 writes=W wrong_values=0 tunables=K alive=1
 *
 * The lines depend only on the seed, so a seed replays its lines in order
 * (how many fit in SECONDS varies a little). With no SEED it runs the seeds
 * that once found a bug (known_seeds below), then one from the clock.
 *
 * Exit status 0 if nothing went wrong, 1 otherwise, 2 on bad arguments.
 * The lines cannot reach outside /tmp/fuzzlines: their paths are a fixed
 * few there, /dev/null and /proc, and poweroff, reboot and kill are not
 * among their words.
 */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

#define SYSCTL_DIR "/proc/sys/kernel"
#define MAX_TUNABLES 64
#define MAX_SEEDS 64

/* Seeds that found a bug, replayed by every run without a SEED. */
static const long known_seeds[] = {
	1796514337,     /* `yes ... >> file &` filled memory through /tmp: a bound on files (kernel/fs/ramfs/ramfs_file.c) */
};

static uint64_t state;

static uint64_t next_random(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static const char *pick(const char *const *list, size_t n)
{
	return list[next_random() % n];
}

#define PICK(list) pick(list, sizeof(list) / sizeof((list)[0]))

static const char *const words[] = {
	"echo", "cat", "true", "false", "ls", "ls -l", "sleep 0", "ps", "jobs", "wait", "cd", "cd /tmp",
	"pwd", "export A=1", "unset A", "A=2", "nice -n 5 true", "taskset -c 0 true", "chrt -o 0 true",
	"sysctl -n kernel.sched_granularity_ns", "yes", "uname -a", "exit 3", "fg", "bg", "history",
	"$?", "$$", "$!", "$A", "${A}", "$1", "$#", "$@", "~", "*", "?", "[a", "\"a b\"", "'x y'", "\\",
	"\"$A\"", "-n", "--", "x", "0", "-1", "99999999999999999999",
};
static const char *const operators[] = { ";", "&&", "||", "|", "&", "(", ")", "\n", "#" };
static const char *const redirections[] = { "<", ">", ">>", "2>", "2>&1", ">&2", "<&0", "3>", ">&-" };
static const char *const targets[] = { "/tmp/fuzzlines/a", "/tmp/fuzzlines/b", "/dev/null", "/proc/uptime",
					"/proc/sys/kernel/ktest_knob", "/nonexistent/x", "" };
static const char stray[] = "|&;<>()\"'\\$`{}*?[]~!#= \t";

/* A line of up to ~12 pieces: words, operators, redirections, stray bytes. */
static void random_line(char *line, size_t size)
{
	size_t used = 0;
	int pieces = 1 + (int)(next_random() % 12);
	line[0] = '\0';
	for (int i = 0; i < pieces && used + 64 < size; i++) {
		uint64_t kind = next_random() % 10;
		if (kind < 5)
			used += (size_t)snprintf(line + used, size - used, "%s ", PICK(words));
		else if (kind < 7)
			used += (size_t)snprintf(line + used, size - used, "%s ", PICK(operators));
		else if (kind < 9)
			used += (size_t)snprintf(line + used, size - used, "%s %s ", PICK(redirections), PICK(targets));
		else
			used += (size_t)snprintf(line + used, size - used, "%c", stray[next_random() % (sizeof(stray) - 1)]);
	}
}

/* Run `sh -c line` with its output to out: its wait status, or -1 if it
 * outlived 5 s. Then its process group goes: the shell's children too. */
static int run_line(const char *line, int out)
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(out >= 0 ? out : null, 1);
		dup2(null, 2);
		setpgid(0, 0);                /* its own group, for the kill below */
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);                    /* before the kill, whoever runs first */
	int status = -1;
	for (int tenths = 0; tenths < 50; tenths++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		status = -1;
		nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	}
	kill(-pid, SIGKILL);
	if (status == -1)
		waitpid(pid, NULL, 0);
	return status;
}

/* Does `sh -c "echo alive"` say alive? */
static bool shell_answers(void)
{
	int p[2];
	if (pipe(p) != 0)
		return false;
	bool ran = run_line("echo alive", p[1]) == 0;
	close(p[1]);
	char said[16];
	ssize_t n = read(p[0], said, sizeof(said) - 1);
	close(p[0]);
	said[n > 0 ? n : 0] = '\0';
	return ran && strcmp(said, "alive\n") == 0;
}

struct tunable {
	char path[300];
	char first[64];                   /* its value before: given back at the end */
};

static bool read_value(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* Write text; true if the kernel took it. */
static bool write_value(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	bool took = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		close(fd);
	return took;
}

static int find_tunables(struct tunable *t)
{
	DIR *dir = opendir(SYSCTL_DIR);
	int n = 0;
	struct dirent *e;
	while (dir && n < MAX_TUNABLES && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(t[n].path, sizeof(t[n].path), "%s/%s", SYSCTL_DIR, e->d_name);
		if (read_value(t[n].path, t[n].first, sizeof(t[n].first)))
			n++;
	}
	if (dir)
		closedir(dir);
	return n;
}

static const char *random_value(char *buf, size_t size)
{
	static const char *const odd[] = { "\n", "abc\n", "-\n", "1 2\n", "0x10\n", " 5\n", "5x\n",
					   "99999999999999999999999\n", "-9223372036854775808\n" };
	static const long numbers[] = { 0, 1, -1, 2, 10, 100, 1000, 50000, 2000000, 1000000000, 2147483647 };
	if (next_random() % 3 == 0)
		return PICK(odd);
	snprintf(buf, size, "%ld\n", numbers[next_random() % (sizeof(numbers) / sizeof(numbers[0]))]);
	return buf;
}

/* One write: true if the value read back is what it should be (else says so). */
static bool fuzz_tunable(const struct tunable *t)
{
	char before[64], after[64], text[32];
	read_value(t->path, before, sizeof(before));
	const char *value = random_value(text, sizeof(text));
	bool took = write_value(t->path, value);
	read_value(t->path, after, sizeof(after));
	if (took ? strtoll(after, NULL, 10) == strtoll(value, NULL, 0) : strcmp(after, before) == 0)
		return true;
	printf("fuzzlines: %s: was %.*s, wrote %.*s (%s), reads %.*s\n", t->path, (int)strcspn(before, "\n"),
	       before, (int)strcspn(value, "\n"), value, took ? "taken" : "refused", (int)strcspn(after, "\n"), after);
	return false;
}

/* The files the lines made in /tmp/fuzzlines go: each seed starts alike. */
static void clear_scratch(void)
{
	DIR *dir = opendir(".");
	struct dirent *e;
	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, "..") != 0))
			unlink(e->d_name);
	if (dir)
		closedir(dir);
}

/* SECONDS of lines and writes from seed; one RESULT line. True if all went well. */
static bool fuzz(long seconds, long seed, struct tunable *tunables, int ntunables)
{
	clear_scratch();
	state = (uint64_t)seed;
	printf("fuzzlines: seed %ld, %ld s (again: /bin/fuzzlines %ld %ld)\n", seed, seconds, seconds, seed);
	fflush(stdout);
	long lines = 0, refused = 0, timeouts = 0, crashes = 0, writes = 0, wrong = 0;
	time_t end = time(NULL) + seconds;
	while (time(NULL) < end) {
		char line[1024];
		random_line(line, sizeof(line));
		int status = run_line(line, -1);
		lines++;
		timeouts += status == -1;
		refused += status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 2;
		if (status != -1 && WIFSIGNALED(status)) {
			printf("fuzzlines: sh -c '%s' died of signal %d\n", line, WTERMSIG(status));
			crashes++;
		}
		for (int i = 0; i < ntunables && i < 3; i++, writes++) {
			const struct tunable *t = &tunables[next_random() % (uint64_t)ntunables];
			wrong += !fuzz_tunable(t);
		}
	}
	for (int i = 0; i < ntunables; i++)
		write_value(tunables[i].path, tunables[i].first);
	bool alive = shell_answers();
	printf("RESULT name=fuzzlines seed=%ld lines=%ld refused=%ld timeouts=%ld shell_crashes=%ld writes=%ld "
	       "wrong_values=%ld tunables=%d alive=%d\n", seed, lines, refused, timeouts, crashes, writes, wrong,
	       ntunables, alive);
	fflush(stdout);
	return !crashes && !wrong && alive;
}

int main(int argc, char **argv)
{
	static const char usage[] = "usage: fuzzlines [SECONDS [SEED...]]\n";
	long seconds = 20, seeds[MAX_SEEDS];
	int nseeds = 0;
	if (argc > 2 + MAX_SEEDS || (argc > 1 && !cmdline_number(argv[1], 1, 86400, &seconds)))
		cmdline_usage(usage, 2);
	for (int i = 2; i < argc; i++)
		if (!cmdline_number(argv[i], 1, 2147483647, &seeds[nseeds++]))
			cmdline_usage(usage, 2);
	if (nseeds == 0) {
		for (size_t i = 0; i < sizeof(known_seeds) / sizeof(known_seeds[0]); i++)
			seeds[nseeds++] = known_seeds[i];
		seeds[nseeds++] = (long)((uint64_t)time(NULL) % 2147483647) | 1;
	}
	mkdir("/tmp/fuzzlines", 0755);
	if (chdir("/tmp/fuzzlines") != 0)
		perror("fuzzlines: /tmp/fuzzlines");

	static struct tunable tunables[MAX_TUNABLES];
	int ntunables = find_tunables(tunables);
	bool ok = ntunables > 0;
	for (int i = 0; i < nseeds; i++)
		ok &= fuzz(seconds, seeds[i], tunables, ntunables);
	return ok ? 0 : 1;
}
