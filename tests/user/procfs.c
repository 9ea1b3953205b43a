/*
 * /proc as ps, top and sysctl read it, case by case: one line per case,
 * "procfs: what = result". The same binary runs on the host's Linux and on
 * leftmost, and the two outputs must be the same line for line (the
 * `linux=` check of tools/runtests.py): the fields' places and formats, and
 * how their values compare with what the system calls say, never the
 * values themselves (pids, times, memory).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CASES_NAME "procfs"
#include "cases.h"

/* The whole of a /proc file (they are small), NUL-terminated: its length, or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long total = 0, n;
	while (total < (long)size - 1 && (n = read(fd, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

/* The fields of /proc/PID/stat after the command's closing parenthesis:
 * field[3] is the state, as proc(5) numbers them; how many there are. */
static int stat_fields(pid_t pid, char field[64][32])
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return 0;
	char *s = strrchr(buf, ')');
	int n = 2;                        /* fields 1 (pid) and 2 (comm) are before it */
	for (char *tok = strtok(s + 1, " \n"); tok && n < 63; tok = strtok(NULL, " \n"))
		snprintf(field[++n], sizeof(field[0]), "%s", tok);
	return n;
}

static long field_of(pid_t pid, int i)
{
	char field[64][32];
	return stat_fields(pid, field) >= i ? atol(field[i]) : -999;
}

static char state_of(pid_t pid)
{
	char field[64][32];
	return stat_fields(pid, field) >= 3 ? field[3][0] : '?';
}

/* The value of "Key:\tvalue" in /proc/PID/status, or "". */
static const char *status_line(pid_t pid, const char *key, char *out, size_t size)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	out[0] = '\0';
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return out;
	size_t len = strlen(key);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strncmp(line, key, len) == 0 && line[len] == ':')
			snprintf(out, size, "%s", line + len + 1 + strspn(line + len + 1, " \t"));
	return out;
}

static void own_stat(const char *argv0)
{
	char field[64][32], buf[4096];
	pid_t me = getpid();
	int n = stat_fields(me, field);
	yes("/proc/self/stat has at least 52 fields", n >= 52);
	snprintf(buf, sizeof(buf), "/proc/%d/stat", (int)me);
	char self[1024], mine[1024];
	slurp("/proc/self/stat", self, sizeof(self));
	slurp(buf, mine, sizeof(mine));
	yes("/proc/self is the reader's own directory", strncmp(self, mine, 20) == 0);
	yes("stat: the command is (procfs)", strstr(mine, " (procfs) ") != NULL);
	printf("procfs: stat: state = %c\n", field[3][0]);
	yes("stat: ppid is getppid()", atol(field[4]) == getppid());
	yes("stat: pgrp is getpgrp()", atol(field[5]) == getpgrp());
	yes("stat: session is getsid(0)", atol(field[6]) == getsid(0));
	printf("procfs: stat: priority, nice = %s, %s\n", field[18], field[19]);
	printf("procfs: stat: threads = %s\n", field[20]);
	yes("stat: processor is sched_getcpu()", atol(field[39]) == sched_getcpu());
	printf("procfs: stat: rt_priority, policy = %s, %s\n", field[40], field[41]);

	setpriority(PRIO_PROCESS, 0, 5);
	printf("procfs: after nice 5: priority, nice = %ld, %ld\n", field_of(me, 18), field_of(me, 19));
	struct sched_param sp = { 0 };
	syscall(SYS_sched_setscheduler, 0, SCHED_BATCH, &sp);
	printf("procfs: after SCHED_BATCH: policy = %ld\n", field_of(me, 41));
	syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp);

	slurp("/proc/self/comm", buf, sizeof(buf));
	printf("procfs: comm = %s", buf);
	long len = slurp("/proc/self/cmdline", buf, sizeof(buf));
	yes("cmdline is argv, each with its NUL", len == (long)strlen(argv0) + 1 && strcmp(buf, argv0) == 0);
}

static void own_status(void)
{
	char value[256];
	printf("procfs: status: Name = %s\n", status_line(getpid(), "Name", value, sizeof(value)));
	printf("procfs: status: State = %s\n", status_line(getpid(), "State", value, sizeof(value)));
	yes("status: Tgid is getpid()", atol(status_line(getpid(), "Tgid", value, sizeof(value))) == getpid());
	yes("status: PPid is getppid()", atol(status_line(getpid(), "PPid", value, sizeof(value))) == getppid());
	printf("procfs: status: Threads = %s\n", status_line(getpid(), "Threads", value, sizeof(value)));
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	printf("procfs: status: pinned to CPU 0: Cpus_allowed_list = %s\n",
	       status_line(getpid(), "Cpus_allowed_list", value, sizeof(value)));
	yes("status: voluntary_ctxt_switches is there",
	    status_line(getpid(), "voluntary_ctxt_switches", value, sizeof(value))[0] != '\0');
}

static void on_hup(int sig)
{
	(void)sig;
}

/* The five signal sets of status, each as the bits of the four signals
 * this case sets up (what it inherited may differ between the two hosts). */
static void status_signals(void)
{
	const unsigned long long ours = 1ULL << (SIGHUP - 1) | 1ULL << (SIGUSR1 - 1) | 1ULL << (SIGUSR2 - 1) |
					1ULL << (SIGPIPE - 1);
	const char *keys[] = { "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt" };
	sigset_t both, old;
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, &old);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, on_hup);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	kill(getpid(), SIGUSR1);                                 /* to the process */
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR2);   /* to this thread */
	for (int i = 0; i < 5; i++) {
		char value[256];
		unsigned long long set = strtoull(status_line(getpid(), keys[i], value, sizeof(value)), NULL, 16);
		printf("procfs: status: %s = %016llx (of HUP, USR1, USR2, PIPE)\n", keys[i], set & ours);
	}
	signal(SIGUSR1, SIG_IGN);                                /* the pending ones go */
	signal(SIGUSR2, SIG_IGN);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

static void *sleep_a_while(void *arg)
{
	(void)arg;
	sleep(2);
	return NULL;
}

/* /proc/self/task lists the threads: the entries that are numbers. */
static int threads_listed(void)
{
	char path[64];
	int n = 0;
	for (int tid = 1; tid < 100000 && n < 8; tid++) {
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		n += access(path, R_OK) == 0;
	}
	return n;
}

static void threads(void)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)syscall(SYS_gettid));
	yes("task/TID/stat of the caller's thread is there", access(path, R_OK) == 0);
	pthread_t t;
	pthread_create(&t, NULL, sleep_a_while, NULL);
	printf("procfs: with a second thread: Threads field = %ld\n", field_of(getpid(), 20));
	printf("procfs: with a second thread: task entries = %d\n", threads_listed());
	pthread_join(t, NULL);
}

static void a_child(void)
{
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	struct timespec a_moment = { 0, 200 * 1000 * 1000 };
	nanosleep(&a_moment, NULL);
	printf("procfs: a child in pause(): state = %c\n", state_of(child));
	kill(child, SIGSTOP);
	nanosleep(&a_moment, NULL);
	printf("procfs: after SIGSTOP: state = %c\n", state_of(child));
	kill(child, SIGKILL);
	nanosleep(&a_moment, NULL);
	printf("procfs: killed, not yet waited for: state = %c\n", state_of(child));
	waitpid(child, NULL, 0);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)child);
	show("waited for: stat(/proc/PID)", stat(path, &(struct stat){ 0 }));
}

/* user + nice + system of /proc/stat's first line, in clock ticks. */
static unsigned long long machine_busy_ticks(void)
{
	char buf[256];
	unsigned long long user = 0, nice = 0, system = 0;
	slurp("/proc/stat", buf, sizeof(buf));
	sscanf(buf, "cpu %llu %llu %llu", &user, &nice, &system);
	return user + nice + system;
}

/* Compute for ms of this thread's CPU time. */
static void burn_cpu_ms(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	long long end = t.tv_sec * 1000000000LL + t.tv_nsec + ms * 1000000LL;
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while (t.tv_sec * 1000000000LL + t.tv_nsec < end);
}

static void machine(void)
{
	static char buf[65536];
	double up, idle;
	slurp("/proc/uptime", buf, sizeof(buf));
	yes("uptime: two numbers with two decimals", sscanf(buf, "%lf %lf", &up, &idle) == 2 && strchr(buf, '.'));
	double l1, l5, l15;
	int running, total, last;
	slurp("/proc/loadavg", buf, sizeof(buf));
	yes("loadavg: three averages, running/total, last pid",
	    sscanf(buf, "%lf %lf %lf %d/%d %d", &l1, &l5, &l15, &running, &total, &last) == 6 && running >= 1);
	slurp("/proc/cpuinfo", buf, sizeof(buf));
	int processors = 0;
	for (char *at = buf; (at = strstr(at, "processor\t:")); at++)
		processors++;
	slurp("/proc/stat", buf, sizeof(buf));
	int cpus = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		cpus += strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9';
	yes("stat: a cpuN line for each processor of cpuinfo", cpus == processors && cpus > 0);
	slurp("/proc/stat", buf, sizeof(buf));
	yes("stat: a first line 'cpu ' with user nice system idle", strncmp(buf, "cpu  ", 5) == 0);
	yes("stat: btime", strstr(buf, "\nbtime ") != NULL);
	char *ctxt = strstr(buf, "\nctxt ");
	unsigned long long switches = ctxt ? strtoull(ctxt + 6, NULL, 10) : 0;
	usleep(10000);                        /* a sleep is two switches at least */
	slurp("/proc/stat", buf, sizeof(buf));
	ctxt = strstr(buf, "\nctxt ");
	yes("stat: ctxt, the task switches so far, grows across a sleep", ctxt && strtoull(ctxt + 6, NULL, 10) > switches);
	/* One computing process per CPU: every CPU's busy time counts. */
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long busy = machine_busy_ticks();
	for (long i = 0; i < online; i++)
		if (fork() == 0) {
			burn_cpu_ms(300);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	double share = (double)(machine_busy_ticks() - busy) / (double)(online * 300 * sysconf(_SC_CLK_TCK) / 1000);
	yes("stat: a process per CPU computing 300 ms shows as at least 3/4 of that busy time", share >= 0.75);
	slurp("/proc/meminfo", buf, sizeof(buf));
	unsigned long total_kb = 0, free_kb = 0;
	char *t = strstr(buf, "MemTotal:"), *f = strstr(buf, "MemFree:");
	yes("meminfo: MemTotal and MemFree in kB, free below total",
	    t && f && sscanf(t, "MemTotal: %lu kB", &total_kb) == 1 && sscanf(f, "MemFree: %lu kB", &free_kb) == 1 &&
	    free_kb < total_kb);
	yes("meminfo: MemAvailable", strstr(buf, "MemAvailable:") != NULL);
	yes("cpuinfo: a processor line", slurp("/proc/cpuinfo", buf, sizeof(buf)) > 0 && strstr(buf, "processor\t: 0"));
	yes("cmdline: one line", slurp("/proc/cmdline", buf, sizeof(buf)) > 0 && strchr(buf, '\n'));
}

static void unchangeable(void)
{
	show("mkdir /proc/x", mkdir("/proc/x", 0755));
	show("unlink /proc/uptime", unlink("/proc/uptime"));
	show("rmdir /proc/sys", rmdir("/proc/sys"));
	show("unlink /proc/self/stat", unlink("/proc/self/stat"));
	show("rename /proc/uptime /tmp/u", rename("/proc/uptime", "/tmp/u"));
	show("rename /proc/uptime /proc/u2", rename("/proc/uptime", "/proc/u2"));
	show("open /proc/new O_CREAT", open("/proc/new", O_CREAT | O_WRONLY, 0644));
	show("open /proc/nope", open("/proc/nope", O_RDONLY));
	show("open /proc/999999/stat", open("/proc/999999/stat", O_RDONLY));
}

int main(int argc, char **argv)
{
	(void)argc;
	setvbuf(stdout, NULL, _IONBF, 0);
	own_stat(argv[0]);
	own_status();
	status_signals();
	threads();
	a_child();
	machine();
	unchangeable();
	printf("procfs: done\n");
	return 0;
}
