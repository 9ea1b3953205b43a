/*
 * sysctl: read and set the kernel's tunables, the files under /proc/sys.
 *
 *   sysctl [-n | -N] [-e] name...           print these (a directory: all below it)
 *   sysctl [-n | -N] -a                     print them all
 *   sysctl [-n] [-e] [-q] [-w] name=value...  set these
 *
 * A name is a path below /proc/sys with dots for slashes
 * (kernel.sched_granularity_ns), or the path itself (kernel/sched_granularity_ns);
 * as procps does, a name written with slashes may hold dots (a network
 * interface's eth0.1), and is printed with the two swapped. A value of
 * several lines prints as a line each.
 *
 *   -a, -A  every tunable, in name order; those that cannot be read are left out
 *   -n      values only          -N  names only
 *   -e      say nothing of names that do not exist
 *   -q      print nothing for what is set
 *   -w      every argument is a name=value (without -w, those with a '=' are)
 *
 * A value is set with one write(2) of it and a newline. The errors are
 * procps's: "sysctl: cannot stat /proc/sys/kernel/foo: No such file or
 * directory", "sysctl: setting key "kernel.x": Invalid argument". Exit
 * status 1 if any name failed, else 0; a usage error also exits 1, the
 * usage on stderr (procps-ng 4.0.2 prints it on stdout and exits 0, and
 * exits 0 when a write fails: a script wants to know).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/proc.h"

#define PROC_SYS "/proc/sys"

enum { PATH_SIZE = 4096, VALUE_SIZE = 65536 };

static int values_only, names_only, ignore_unknown, quiet;

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: sysctl [-n | -N] [-e] [-q] [-w] name[=value]...\n"
		     "       sysctl [-n | -N] -a\n"
		     "  -a, -A  print every tunable\n"
		     "  -n      print values only\n"
		     "  -N      print names only\n"
		     "  -e      ignore names that do not exist\n"
		     "  -q      print nothing for what is set\n"
		     "  -w      set: every argument is name=value\n"
		     "  -h      this help\n"
		     "A name is kernel.sched_granularity_ns or kernel/sched_granularity_ns.\n");
	exit(status);
}

/* Turns dots into slashes and slashes into dots. */
static void swap_separators(char *text)
{
	for (; *text; text++) {
		if (*text == '.')
			*text = '/';
		else if (*text == '/')
			*text = '.';
	}
}

/* The file of a name: with slashes for dots, unless it has slashes already. */
static void path_of(const char *name, char *path)
{
	snprintf(path, PATH_SIZE, PROC_SYS "/%s", name);
	char *relative = path + strlen(PROC_SYS "/");
	char *separator = strpbrk(relative, "./");
	if (separator && *separator == '.')
		swap_separators(relative);
}

/* The name of a file below /proc/sys, as it is printed. */
static void name_of(const char *path, char *name)
{
	snprintf(name, PATH_SIZE, "%s", path + strlen(PROC_SYS "/"));
	swap_separators(name);
}

/* Prints name = value, a line for each line of the value. */
static void print(const char *name, char *value)
{
	if (names_only) {
		puts(name);
		return;
	}
	size_t len = strlen(value);
	if (len && value[len - 1] == '\n')
		value[len - 1] = '\0';
	for (char *line = value;;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (values_only)
			puts(line);
		else
			printf("%s = %s\n", name, line);
		if (!end)
			break;
		line = end + 1;
	}
}

/* Prints a tunable; a failure is said unless quietly is set: 0, or 1. */
static int show(const char *path, int quietly)
{
	static char value[VALUE_SIZE];
	char name[PATH_SIZE];
	name_of(path, name);
	if (proc_read_file(path, value, sizeof value) < 0) {
		if (!quietly)
			fprintf(stderr, "sysctl: reading key \"%s\": %s\n", name, strerror(errno));
		return 1;
	}
	print(name, value);
	return 0;
}

/* Prints every tunable below a directory, in name order; what cannot be
 * read (a write-only file, a value not set) is left out, as procps does. */
static int show_all(const char *directory)
{
	struct dirent **entries;
	int n = scandir(directory, &entries, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "sysctl: cannot read %s: %s\n", directory, strerror(errno));
		return 1;
	}
	int failed = 0;
	for (int i = 0; i < n; i++) {
		const char *entry = entries[i]->d_name;
		char path[PATH_SIZE];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", directory, entry);
		if (strcmp(entry, ".") != 0 && strcmp(entry, "..") != 0 && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				failed |= show_all(path);
			else
				show(path, 1);
		}
		free(entries[i]);
	}
	free(entries);
	return failed;
}

/* Finds a name's file, its status into *st: 1; else 0 if -e ignores a
 * name that does not exist, or -1 having said why. */
static int find(const char *path, struct stat *st)
{
	if (stat(path, st) == 0)
		return 1;
	if (errno == ENOENT && ignore_unknown)
		return 0;
	fprintf(stderr, "sysctl: cannot stat %s: %s\n", path, strerror(errno));
	return -1;
}

static int read_name(const char *name)
{
	char path[PATH_SIZE];
	struct stat st;
	path_of(name, path);
	int found = find(path, &st);
	if (found <= 0)
		return found < 0;
	return S_ISDIR(st.st_mode) ? show_all(path) : show(path, 0);
}

/* Writes value and a newline to the file, in one write: 0, or -1. */
static int write_value(const char *path, const char *value)
{
	static char text[VALUE_SIZE];
	int len = snprintf(text, sizeof text, "%s\n", value);
	if (len >= (int)sizeof text) {
		errno = E2BIG;
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t written = write(fd, text, len);
	int saved = errno;
	close(fd);
	errno = saved;
	if (written >= 0 && written < len)
		errno = EIO;
	return written == len ? 0 : -1;
}

static int set(char *assignment)
{
	char *equals = strchr(assignment, '=');
	if (!equals || equals == assignment) {
		fprintf(stderr, "sysctl: \"%s\" must be of the form name=value\n", assignment);
		return 1;
	}
	*equals = '\0';
	char *value = equals + 1;
	char path[PATH_SIZE], name[PATH_SIZE];
	path_of(assignment, path);
	name_of(path, name);
	struct stat st;
	int found = find(path, &st);
	if (found <= 0)
		return found < 0;
	if (write_value(path, value) != 0) {
		fprintf(stderr, "sysctl: setting key \"%s\": %s\n", name, strerror(errno));
		return 1;
	}
	if (!quiet)
		print(name, value);
	return 0;
}

int main(int argc, char **argv)
{
	int all = 0, writing = 0, opt;
	while ((opt = getopt(argc, argv, "aAnNeqwh")) != -1) {
		switch (opt) {
		case 'a':
		case 'A':
			all = 1;
			break;
		case 'n':
			values_only = 1;
			break;
		case 'N':
			names_only = 1;
			break;
		case 'e':
			ignore_unknown = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'w':
			writing = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 1);
		}
	}
	if (!all && optind == argc)
		usage(stderr, 1);

	int failed = all ? show_all(PROC_SYS) : 0;
	for (int i = optind; i < argc; i++)
		failed |= writing || strchr(argv[i], '=') ? set(argv[i]) : read_name(argv[i]);
	return failed;
}
