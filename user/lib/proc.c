/*
 * Reading /proc for ps and top: a task's stat line, the list of processes
 * and threads, and the way procps shows policies and CPU times.
 */
#include "proc.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

ssize_t proc_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* /proc files may come in pieces: read until the end or a full buffer. */
	size_t len = 0;
	ssize_t n = 0;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	int error = errno;
	close(fd);
	if (n < 0) {
		errno = error;
		return -1;
	}
	buf[len] = '\0';
	return len;
}

void proc_printable(char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\0')
			text[i] = ' ';
		else if (iscntrl((unsigned char)text[i]))
			text[i] = '?';
	}
}

static long long number(const char *field)
{
	return strtoll(field, NULL, 10);
}

int proc_read_stat(pid_t pid, pid_t tid, struct proc_stat *stat)
{
	char path[64], line[1024];
	if (tid)
		snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
	else
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if (proc_read_file(path, line, sizeof line) < 0)
		return -1;

	/* The comm may hold spaces and parentheses itself: it ends at the last ')'. */
	char *comm_start = strchr(line, '('), *comm_end = strrchr(line, ')');
	if (!comm_start || !comm_end || comm_end < comm_start) {
		errno = EINVAL;
		return -1;
	}
	size_t comm_len = comm_end - comm_start - 1;
	if (comm_len >= sizeof stat->comm)
		comm_len = sizeof stat->comm - 1;
	memcpy(stat->comm, comm_start + 1, comm_len);
	stat->comm[comm_len] = '\0';
	proc_printable(stat->comm, comm_len);

	/* The fields after it, numbered as proc(5) numbers them from the pid. */
	enum { LAST_USED = 41 };
	char *field[LAST_USED + 1];
	int n = 3;
	char *save;
	for (char *f = strtok_r(comm_end + 1, " \n", &save); f && n <= LAST_USED; f = strtok_r(NULL, " \n", &save))
		field[n++] = f;
	if (n <= LAST_USED) {
		errno = EINVAL;
		return -1;
	}
	stat->id = number(line);
	stat->state = field[3][0];
	stat->ppid = number(field[4]);
	stat->utime = number(field[14]);
	stat->stime = number(field[15]);
	stat->priority = number(field[18]);
	stat->nice = number(field[19]);
	stat->num_threads = number(field[20]);
	stat->starttime = number(field[22]);
	stat->processor = number(field[39]);
	stat->rt_priority = number(field[40]);
	stat->policy = number(field[41]);
	return 0;
}

static int is_id(const char *name)
{
	if (!*name)
		return 0;
	for (; *name; name++)
		if (!isdigit((unsigned char)*name))
			return 0;
	return 1;
}

static int by_id(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The array, grown if it is full to hold one more element of size bytes
 * (it may move), or NULL, out of memory, the array left as it was. */
static void *make_room(void *array, int count, int *room, size_t size)
{
	if (count < *room)
		return array;
	int bigger_room = *room ? 2 * *room : 64;
	void *bigger = realloc(array, bigger_room * size);
	if (bigger)
		*room = bigger_room;
	return bigger;
}

/* The numbered entries of a directory of /proc, ascending, in an array to
 * free(): their number, or -1. */
static int list_ids(const char *path, pid_t **ids)
{
	DIR *dir = opendir(path);
	if (!dir)
		return -1;
	pid_t *list = NULL;
	int count = 0, room = 0;
	for (struct dirent *entry; (entry = readdir(dir));) {
		if (!is_id(entry->d_name))
			continue;
		pid_t *bigger = make_room(list, count, &room, sizeof *list);
		if (!bigger) {
			count = -1;
			break;
		}
		list = bigger;
		list[count++] = atoi(entry->d_name);
	}
	closedir(dir);
	if (count < 0) {
		free(list);
		return -1;
	}
	qsort(list, count, sizeof *list, by_id);
	*ids = list;
	return count;
}

/* A listing being made: its tasks so far. */
struct listing {
	struct proc_task *tasks;
	int count, room;
};

/* Adds the task of process pid (tid 0) or its thread tid, unless it has
 * just ended: 0, or -1 out of memory. */
static int add(struct listing *listing, pid_t pid, pid_t tid)
{
	struct proc_stat stat;
	if (proc_read_stat(pid, tid, &stat) != 0)
		return 0;
	struct proc_task *bigger = make_room(listing->tasks, listing->count, &listing->room, sizeof *bigger);
	if (!bigger)
		return -1;
	listing->tasks = bigger;
	listing->tasks[listing->count++] = (struct proc_task){ .pid = pid, .stat = stat };
	return 0;
}

static int add_threads(struct listing *listing, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	pid_t *tids;
	int n = list_ids(path, &tids);
	if (n < 0)
		return 0;         /* the process has just ended */
	int failed = 0;
	for (int i = 0; i < n && !failed; i++)
		failed = add(listing, pid, tids[i]);
	free(tids);
	return failed;
}

int proc_read_tasks(int threads, struct proc_task **tasks)
{
	pid_t *pids;
	int n = list_ids("/proc", &pids);
	if (n < 0)
		return -1;
	struct listing listing = { 0 };
	int failed = 0;
	for (int i = 0; i < n && !failed; i++)
		failed = threads ? add_threads(&listing, pids[i]) : add(&listing, pids[i], 0);
	free(pids);
	if (failed) {
		free(listing.tasks);
		return -1;
	}
	*tasks = listing.tasks;
	return listing.count;
}

double proc_uptime(void)
{
	char text[64];
	if (proc_read_file("/proc/uptime", text, sizeof text) < 0)
		return 0;
	return strtod(text, NULL);
}

double proc_cpu_percent(unsigned long long ticks, double seconds)
{
	if (seconds <= 0)
		return 0;
	return 100.0 * ticks / sysconf(_SC_CLK_TCK) / seconds;
}

const char *proc_policy_name(int policy)
{
	/* Indexed by SCHED_OTHER, SCHED_FIFO, ... SCHED_DEADLINE (0..6). */
	static const char *const names[] = { "TS", "FF", "RR", "B", "ISO", "IDL", "DLN" };
	if (policy < 0 || policy >= (int)(sizeof names / sizeof names[0]))
		return "-";
	return names[policy];
}

char *proc_format_time(char *buf, size_t size, unsigned long long ticks)
{
	unsigned long long seconds = ticks / sysconf(_SC_CLK_TCK);
	unsigned long long days = seconds / 86400;
	unsigned hours = seconds / 3600 % 24, minutes = seconds / 60 % 60, secs = seconds % 60;
	if (days)
		snprintf(buf, size, "%llu-%02u:%02u:%02u", days, hours, minutes, secs);
	else
		snprintf(buf, size, "%02u:%02u:%02u", hours, minutes, secs);
	return buf;
}

int proc_terminal_size(int fd, int *rows, int *columns)
{
	struct winsize size;
	*rows = 24;
	*columns = 80;
	if (ioctl(fd, TIOCGWINSZ, &size) != 0)
		return 0;
	/* A serial line's terminal may not know its size and say 0. */
	if (size.ws_row)
		*rows = size.ws_row;
	if (size.ws_col)
		*columns = size.ws_col;
	return 1;
}
