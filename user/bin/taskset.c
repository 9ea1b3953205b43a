/*
 * taskset: show or set the CPUs a process may run on (its affinity), as
 * util-linux's taskset does:
 *
 *   taskset [-c] cpus command [arg...]   run a command on those CPUs
 *   taskset [-c] -p [cpus] pid           show, or change, a process's
 *
 * The CPUs are a hexadecimal mask, CPU 0 its lowest bit (1 is CPU 0, f
 * CPUs 0 to 3; a 0x prefix and /proc's commas are allowed), or with -c a
 * list: 0,2-3, and 1-7:2 for every second CPU from 1 to 7.
 *
 * Exit status: the command's, or 0; 1 for a bad option, mask, list or
 * pid, or a change refused (as util-linux's); 126 if the command cannot
 * be run, 127 if it does not exist.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

static const char usage[] =
	"usage: taskset [-c] cpus command [arg...]\n"
	"       taskset [-c] -p [cpus] pid\n";

/* A cpu_set_t's CPUs (musl's CPU_SETSIZE counts its bytes instead). */
#define SET_CPUS (8 * (int)sizeof(cpu_set_t))

static bool parse_mask(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	int cpu = 0, digits = 0;
	for (const char *p = s + strlen(s); p-- > s;) {   /* from CPU 0, the last digit */
		if (*p == ',')
			continue;
		if (!isxdigit((unsigned char)*p))
			return false;
		int digit = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
		for (int bit = 0; bit < 4; bit++, cpu++) {
			if (!(digit & 1 << bit))
				continue;
			if (cpu >= SET_CPUS)
				return false;
			CPU_SET(cpu, set);
		}
		digits++;
	}
	return digits > 0;
}

/* Read the number at *s and move past it: false if there is none, or it is
 * beyond what a cpu_set_t holds. */
static bool read_number(const char **s, int *n)
{
	if (!isdigit((unsigned char)**s))
		return false;
	char *end;
	errno = 0;
	long value = strtol(*s, &end, 10);
	if (errno || value >= SET_CPUS)
		return false;
	*n = (int)value;
	*s = end;
	return true;
}

/* A list: items FIRST, FIRST-LAST or FIRST-LAST:STRIDE, separated by commas. */
static bool parse_list(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (;;) {
		int first, last, stride = 1;
		if (!read_number(&s, &first))
			return false;
		last = first;
		if (*s == '-') {
			s++;
			if (!read_number(&s, &last) || last < first)
				return false;
			if (*s == ':') {
				s++;
				if (!read_number(&s, &stride) || stride == 0)
					return false;
			}
		}
		for (int cpu = first; cpu <= last; cpu += stride)
			CPU_SET(cpu, set);
		if (*s == '\0')
			return true;
		if (*s++ != ',')
			return false;
	}
}

static void parse_cpus(const char *s, bool as_list, cpu_set_t *set)
{
	if (!(as_list ? parse_list(s, set) : parse_mask(s, set)))
		errx(1, "failed to parse CPU %s: %s", as_list ? "list" : "mask", s);
}

static void print_mask(const cpu_set_t *set)
{
	int top = SET_CPUS - 1;
	while (top > 0 && !CPU_ISSET(top, set))
		top--;
	for (int first = top / 4 * 4; first >= 0; first -= 4) {
		int digit = 0;
		for (int bit = 0; bit < 4; bit++)
			digit |= (CPU_ISSET(first + bit, set) ? 1 : 0) << bit;
		putchar("0123456789abcdef"[digit]);
	}
}

/* As util-linux prints it: runs of three or more CPUs as FIRST-LAST, the
 * others one by one ("0,1" and "0-2"). */
static void print_list(const cpu_set_t *set)
{
	const char *separator = "";
	for (int cpu = 0; cpu < SET_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		int last = cpu;
		while (last + 1 < SET_CPUS && CPU_ISSET(last + 1, set))
			last++;
		if (last - cpu >= 2) {
			printf("%s%d-%d", separator, cpu, last);
			cpu = last;
		} else {
			printf("%s%d", separator, cpu);
		}
		separator = ",";
	}
}

/* "pid 42's current affinity mask: f", when being "current" or "new". */
static void show(pid_t pid, const char *when, bool as_list)
{
	cpu_set_t set;
	if (sched_getaffinity(pid, sizeof(set), &set) < 0)
		err(1, "failed to get pid %d's affinity", pid);
	printf("pid %d's %s affinity %s: ", pid, when, as_list ? "list" : "mask");
	if (as_list)
		print_list(&set);
	else
		print_mask(&set);
	putchar('\n');
}

static void set_affinity(pid_t pid, const cpu_set_t *set)
{
	if (sched_setaffinity(pid, sizeof(*set), set) < 0)
		err(1, "failed to set pid %d's affinity", pid);
}

int main(int argc, char **argv)
{
	bool by_pid = false, as_list = false;
	int c;
	while ((c = getopt(argc, argv, "cp")) != -1) {
		if (c == 'c')
			as_list = true;
		else if (c == 'p')
			by_pid = true;
		else
			cmdline_usage(usage, 1);
	}
	char **operands = &argv[optind];
	int nr_operands = argc - optind;
	cpu_set_t set;
	if (by_pid && nr_operands == 1) {
		show(cmdline_pid(operands[0]), "current", as_list);
	} else if (by_pid && nr_operands == 2) {
		parse_cpus(operands[0], as_list, &set);
		pid_t pid = cmdline_pid(operands[1]);
		show(pid, "current", as_list);
		set_affinity(pid, &set);
		show(pid, "new", as_list);
	} else if (!by_pid && nr_operands >= 2) {
		parse_cpus(operands[0], as_list, &set);
		set_affinity(0, &set);
		cmdline_exec(&operands[1]);
	} else {
		cmdline_usage(usage, 1);
	}
	return 0;
}
