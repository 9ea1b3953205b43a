/*
 * ls [-l] [-a] [-1] [path...]: list directories and show files (".", if
 * no path is given), as coreutils' ls does in the C locale:
 *
 *   - names are sorted byte by byte; those beginning with "." are left
 *     out, unless -a;
 *   - the files among the paths come first, then each directory, under a
 *     "path:" heading when there are several paths;
 *   - -l gives a line to each name: type and permissions, links, size,
 *     time of the last change ("Mon DD HH:MM", or "Mon DD  YYYY" when
 *     that is more than half a year ago or in the future) and the name.
 *     Unlike coreutils, no owner or group (leftmost has no user names)
 *     and no "total" line;
 *   - without -l, one name per line, unless standard output is a terminal
 *     and there is no -1: then columns, filled downwards, each as wide as
 *     its widest name, as many as the terminal's width holds (80 if it
 *     does not say).
 *
 * Exit status: 0; 1 if a name in a directory could not be examined; 2 if
 * a path could not be, or for a bad option (as coreutils').
 */
#include <dirent.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: ls [-l] [-a] [-1] [path...]\n";

struct entry {
	char *name;
	struct stat st;                 /* with -l only */
};

struct list {
	struct entry *entries;
	size_t len, capacity;
};

static bool long_format, show_hidden, one_per_line;
static int terminal_width;              /* 0: standard output is no terminal */
static int status;

/* Minor trouble is 1, serious 2: the status is the worst there was. */
static void trouble(int severity)
{
	if (status < severity)
		status = severity;
}

static void add(struct list *list, const char *name, const struct stat *st)
{
	if (list->len == list->capacity) {
		list->capacity = list->capacity ? 2 * list->capacity : 16;
		list->entries = realloc(list->entries, list->capacity * sizeof(*list->entries));
		if (!list->entries)
			err(2, NULL);
	}
	struct entry *e = &list->entries[list->len++];
	if (!(e->name = strdup(name)))
		err(2, NULL);
	e->st = *st;
}

static void clear(struct list *list)
{
	for (size_t i = 0; i < list->len; i++)
		free(list->entries[i].name);
	free(list->entries);
	*list = (struct list){ 0 };
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* "drwxr-xr-x": the type, then read, write and execute for the owner, the
 * group and the others; s or t where set-user-ID, set-group-ID or sticky
 * goes with execute (S or T without it). */
static void mode_string(mode_t mode, char s[11])
{
	s[0] = S_ISDIR(mode) ? 'd' : S_ISCHR(mode) ? 'c' : S_ISBLK(mode) ? 'b' : S_ISFIFO(mode) ? 'p' :
	       S_ISLNK(mode) ? 'l' : S_ISSOCK(mode) ? 's' : '-';
	for (int i = 0; i < 9; i++)
		s[1 + i] = mode & (0400 >> i) ? "rwxrwxrwx"[i] : '-';
	if (mode & S_ISUID)
		s[3] = s[3] == 'x' ? 's' : 'S';
	if (mode & S_ISGID)
		s[6] = s[6] == 'x' ? 's' : 'S';
	if (mode & S_ISVTX)
		s[9] = s[9] == 'x' ? 't' : 'T';
	s[10] = '\0';
}

static void format_time(time_t t, char *buf, size_t size)
{
	const time_t half_year = 365 * 24 * 60 * 60 / 2;
	time_t now = time(NULL);
	bool recent = t <= now && now - t < half_year;
	strftime(buf, size, recent ? "%b %e %H:%M" : "%b %e  %Y", localtime(&t));
}

static void print_long(const struct list *list)
{
	int links_width = 0, size_width = 0;   /* the columns line up */
	for (size_t i = 0; i < list->len; i++) {
		const struct stat *st = &list->entries[i].st;
		int links = snprintf(NULL, 0, "%lu", (unsigned long)st->st_nlink);
		int size = snprintf(NULL, 0, "%lld", (long long)st->st_size);
		links_width = links > links_width ? links : links_width;
		size_width = size > size_width ? size : size_width;
	}
	for (size_t i = 0; i < list->len; i++) {
		const struct entry *e = &list->entries[i];
		char mode[11], date[32];
		mode_string(e->st.st_mode, mode);
		format_time(e->st.st_mtime, date, sizeof(date));
		printf("%s %*lu %*lld %s %s\n", mode, links_width, (unsigned long)e->st.st_nlink, size_width,
		       (long long)e->st.st_size, date, e->name);
	}
}

/* The width of the column of names from `first` on, `rows` of them at most. */
static int column_width(const struct list *list, size_t first, size_t rows)
{
	int widest = 0;
	for (size_t i = first; i < first + rows && i < list->len; i++) {
		int len = (int)strlen(list->entries[i].name);
		widest = len > widest ? len : widest;
	}
	return widest;
}

/* A line's width with the names in `rows` rows: the columns' widths and
 * two spaces between each two. */
static int line_width(const struct list *list, size_t rows)
{
	int width = -2;
	for (size_t first = 0; first < list->len; first += rows)
		width += column_width(list, first, rows) + 2;
	return width;
}

/* The rows that make the most columns that fit in the terminal. */
static size_t rows_that_fit(const struct list *list)
{
	for (size_t columns = list->len; columns > 1; columns--) {
		size_t rows = (list->len + columns - 1) / columns;
		if (line_width(list, rows) <= terminal_width)
			return rows;
	}
	return list->len;
}

/* The names down each column, then across. */
static void print_columns(const struct list *list)
{
	size_t rows = rows_that_fit(list);
	for (size_t row = 0; row < rows; row++) {
		for (size_t i = row; i < list->len; i += rows) {
			if (i + rows < list->len)
				printf("%-*s", column_width(list, i - row, rows) + 2, list->entries[i].name);
			else
				printf("%s\n", list->entries[i].name);
		}
	}
}

static void sort(struct list *list)
{
	qsort(list->entries, list->len, sizeof(*list->entries), by_name);
}

static void print_entries(struct list *list)
{
	sort(list);
	if (long_format)
		print_long(list);
	else if (terminal_width && !one_per_line)
		print_columns(list);
	else
		for (size_t i = 0; i < list->len; i++)
			puts(list->entries[i].name);
}

static void list_directory(const char *path)
{
	DIR *dir = opendir(path);
	if (!dir) {
		warn("cannot open directory '%s'", path);
		trouble(2);
		return;
	}
	struct list list = { 0 };
	struct dirent *d;
	while ((d = readdir(dir))) {
		struct stat st = { 0 };
		if (d->d_name[0] == '.' && !show_hidden)
			continue;
		if (long_format && fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			warn("cannot access '%s/%s'", path, d->d_name);
			trouble(1);
			continue;
		}
		add(&list, d->d_name, &st);
	}
	closedir(dir);
	print_entries(&list);
	clear(&list);
}

/* 0 if standard output is not a terminal (it has no window size). */
static int width_of_terminal(void)
{
	struct winsize ws;
	if (ioctl(1, TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col ? ws.ws_col : 80;
}

int main(int argc, char **argv)
{
	bool given[128] = { false };
	int first = cmdline_flags(argc, argv, "la1", given, usage, 2);
	long_format = given['l'];
	show_hidden = given['a'];
	one_per_line = given['1'];
	terminal_width = width_of_terminal();

	static char *dot[] = { "." };
	char **paths = first < argc ? &argv[first] : dot;
	int nr_paths = first < argc ? argc - first : 1;
	struct list files = { 0 }, dirs = { 0 };
	for (int i = 0; i < nr_paths; i++) {
		struct stat st;
		if ((long_format ? lstat : stat)(paths[i], &st) < 0) {
			warn("cannot access '%s'", paths[i]);
			trouble(2);
			continue;
		}
		add(S_ISDIR(st.st_mode) ? &dirs : &files, paths[i], &st);
	}
	print_entries(&files);
	sort(&dirs);
	for (size_t i = 0; i < dirs.len; i++) {
		if (nr_paths > 1)
			printf("%s%s:\n", files.len || i ? "\n" : "", dirs.entries[i].name);
		list_directory(dirs.entries[i].name);
	}
	clear(&files);
	clear(&dirs);
	return status;
}
