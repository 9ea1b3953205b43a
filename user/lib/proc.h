/*
 * What ps and top read from /proc, and how they show it. Only files whose
 * format Linux documents in proc(5) are read, so the same program works
 * on Linux and on leftmost, which lays /proc out the same way.
 */
#pragma once
#include <stddef.h>
#include <sys/types.h>

/* The fields of a line of /proc/PID/stat (or /proc/PID/task/TID/stat)
 * that the tools show. The times are in clock ticks, sysconf(_SC_CLK_TCK)
 * a second. */
struct proc_stat {
	pid_t id;                          /* field 1: the pid, or a thread's tid */
	char comm[64];                     /* field 2, without its parentheses, printable */
	char state;                        /* R running, S and D asleep, T stopped, Z zombie, ... */
	pid_t ppid;
	unsigned long long utime, stime;   /* CPU time in ring 3, and in the kernel */
	long priority, nice;
	long num_threads;
	unsigned long long starttime;      /* since boot */
	int processor;                     /* the CPU it last ran on */
	int rt_priority, policy;
};

/* A row of a listing: a process, or one thread of it. */
struct proc_task {
	pid_t pid;                         /* the process; stat.id is the thread's tid */
	struct proc_stat stat;
};

/* Reads a small file whole into buf, NUL-terminated (a longer file is cut
 * at size - 1 bytes): its length, or -1 with errno set. */
ssize_t proc_read_file(const char *path, char *buf, size_t size);

/* Makes text of len bytes fit on a line of a terminal: NULs (between a
 * command's arguments) become spaces, other control characters '?'. */
void proc_printable(char *text, size_t len);

/* Reads the stat line of process pid (tid 0), or of its thread tid. */
int proc_read_stat(pid_t pid, pid_t tid, struct proc_stat *stat);

/* Every process (threads 0) or every thread (threads 1), by pid then tid,
 * in an array to free(): their number, or -1 if /proc cannot be read.
 * Tasks that end while the listing is made are left out. */
int proc_read_tasks(int threads, struct proc_task **tasks);

/* Seconds since boot, from /proc/uptime (0 if it cannot be read). */
double proc_uptime(void);

/* The share of one CPU that ticks of CPU time are over seconds, in percent. */
double proc_cpu_percent(unsigned long long ticks, double seconds);

/* A scheduling policy as procps's CLS column names it: TS, FF, RR, B, ISO,
 * IDL, DLN, or "-" for a number it does not know. */
const char *proc_policy_name(int policy);

/* ticks of CPU time as [DD-]HH:MM:SS, into buf: returns buf. */
char *proc_format_time(char *buf, size_t size, unsigned long long ticks);

/* The size of the terminal on fd: 1, or 0 when fd is no terminal and the
 * size is VT100's 24 rows of 80 columns. */
int proc_terminal_size(int fd, int *rows, int *columns);
