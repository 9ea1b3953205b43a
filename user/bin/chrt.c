/*
 * chrt: show or set the scheduling policy and priority of a process, as
 * util-linux's chrt does:
 *
 *   chrt [policy] priority command [arg...]   run a command so
 *   chrt [policy] -p priority pid             change a running process
 *   chrt -p pid                               show a process's
 *   chrt -m                                   each policy's priorities
 *
 * The policy is -o SCHED_OTHER, -f SCHED_FIFO, -r SCHED_RR (the default,
 * as in util-linux), -b SCHED_BATCH or -i SCHED_IDLE; -R adds
 * SCHED_RESET_ON_FORK (the process's children start as SCHED_OTHER).
 * The priority is 1..99 for FIFO and RR, 0 for the others.
 *
 * musl's sched_setscheduler() and sched_getscheduler() fail with ENOSYS
 * on purpose (POSIX means a process's policy, Linux's calls a thread's),
 * so chrt makes the system calls itself.
 *
 * Exit status: the command's, or 0; 1 for a bad option, priority or pid,
 * or a change refused (as util-linux's); 126 if the command cannot be
 * run, 127 if it does not exist.
 */
#include <err.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

static const char usage[] =
	"usage: chrt [-o|-f|-r|-b|-i] [-R] priority command [arg...]\n"
	"       chrt [-o|-f|-r|-b|-i] [-R] -p priority pid\n"
	"       chrt -p pid\n"
	"       chrt -m\n";

struct policy {
	char option;
	int number;
	const char *name;
};

static const struct policy policies[] = {
	{ 'o', SCHED_OTHER, "SCHED_OTHER" },
	{ 'f', SCHED_FIFO, "SCHED_FIFO" },
	{ 'r', SCHED_RR, "SCHED_RR" },
	{ 'b', SCHED_BATCH, "SCHED_BATCH" },
	{ 'i', SCHED_IDLE, "SCHED_IDLE" },
};
#define NR_POLICIES (sizeof(policies) / sizeof(policies[0]))

static const struct policy *policy_of_option(int option)
{
	for (unsigned i = 0; i < NR_POLICIES; i++)
		if (policies[i].option == option)
			return &policies[i];
	return NULL;
}

static const char *policy_name(int number)
{
	for (unsigned i = 0; i < NR_POLICIES; i++)
		if (policies[i].number == number)
			return policies[i].name;
	return "unknown";
}

static void show_priority_ranges(void)
{
	for (unsigned i = 0; i < NR_POLICIES; i++)
		printf("%s min/max priority\t: %d/%d\n", policies[i].name,
		       sched_get_priority_min(policies[i].number), sched_get_priority_max(policies[i].number));
}

static void show(pid_t pid)
{
	int policy = (int)syscall(SYS_sched_getscheduler, pid);
	struct sched_param param;
	if (policy < 0 || syscall(SYS_sched_getparam, pid, &param) < 0)
		err(1, "failed to get pid %d's policy", pid);
	printf("pid %d's current scheduling policy: %s%s\n", pid, policy_name(policy & ~SCHED_RESET_ON_FORK),
	       policy & SCHED_RESET_ON_FORK ? "|SCHED_RESET_ON_FORK" : "");
	printf("pid %d's current scheduling priority: %d\n", pid, param.sched_priority);
}

static void set(pid_t pid, const struct policy *policy, bool reset_on_fork, const char *priority_text)
{
	int min = sched_get_priority_min(policy->number), max = sched_get_priority_max(policy->number);
	long priority;
	if (!cmdline_number(priority_text, min, max, &priority))
		errx(1, "priority '%s' is not valid for %s (%d to %d)", priority_text, policy->name, min, max);
	struct sched_param param = { .sched_priority = (int)priority };
	int number = policy->number | (reset_on_fork ? SCHED_RESET_ON_FORK : 0);
	if (syscall(SYS_sched_setscheduler, pid, number, &param) < 0)
		err(1, "failed to set pid %d's policy", pid);
}

int main(int argc, char **argv)
{
	const struct policy *policy = policy_of_option('r');   /* as util-linux */
	bool by_pid = false, reset_on_fork = false;
	int c;
	while ((c = getopt(argc, argv, "ofrbiRpm")) != -1) {
		switch (c) {
		case 'p':
			by_pid = true;
			break;
		case 'R':
			reset_on_fork = true;
			break;
		case 'm':
			show_priority_ranges();
			return 0;
		case '?':
			cmdline_usage(usage, 1);
		default:                /* one of the policies' letters */
			policy = policy_of_option(c);
		}
	}
	char **operands = &argv[optind];
	int nr_operands = argc - optind;
	if (by_pid && nr_operands == 1) {
		show(cmdline_pid(operands[0]));
	} else if (by_pid && nr_operands == 2) {
		set(cmdline_pid(operands[1]), policy, reset_on_fork, operands[0]);
	} else if (!by_pid && nr_operands >= 2) {
		set(0, policy, reset_on_fork, operands[0]);
		cmdline_exec(&operands[1]);
	} else {
		cmdline_usage(usage, 1);
	}
	return 0;
}
