/*
 * help: what there is to do at leftmost's shell, on one screen: the
 * commands, the console's debug keys, the files of /proc to read.
 *
 * Exit status: 0; 1 for any option or operand (help takes none).
 */
#include <stdio.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: help\n";

static const char text[] =
	"Commands (a bad option shows a command's usage):\n"
	"  demo        restart the scheduler demo\n"
	"  ps          list the processes\n"
	"  top         watch the tasks run, live\n"
	"  nice        run a command at another niceness: nice -n 5 CMD\n"
	"  renice      change a process's niceness: renice -n 5 -p PID\n"
	"  chrt        show or set a policy: chrt -p PID, chrt -b 0 CMD, chrt -m\n"
	"  taskset     show or set the CPUs a task may use: taskset -c 0,2 CMD\n"
	"  sysctl      read or set the scheduler's tunables (kernel.sched_*)\n"
	"  kill        send a signal: kill -STOP PID, kill -CONT PID\n"
	"  time        run a command, then say how long it took\n"
	"  sleep       wait: sleep 1.5, sleep 2m\n"
	"  yes         say y for ever; a CPU hog: yes > /dev/null &\n"
	"  cat         show files: cat -n /proc/self/status\n"
	"  echo        print words: echo -e 'a\\tb'\n"
	"  ls          list directories: ls -l /proc\n"
	"  true        succeed\n"
	"  false       fail\n"
	"  uname       name the system: uname -a\n"
	"  sh          a shell, inside this one\n"
	"  poweroff    turn the machine off\n"
	"  reboot      restart the machine\n"
	"  help        this list\n"
	"\n"
	"Debug keys on the console: Ctrl-T, then a key (Ctrl-T h lists them):\n"
	"  d runqueues   t tasks   c CPUs   m memory   r/w record/write a trace\n"
	"  o power off   b reboot\n"
	"\n"
	"In /proc, in Linux's format:\n"
	"  /proc/sched_debug          every CPU's runqueue and its tasks\n"
	"  /proc/PID/sched            a task's scheduling statistics\n"
	"  /proc/PID/stat, status     its state, niceness, CPUs\n"
	"  /proc/sys/kernel/sched_*   the tunables that sysctl reads and sets\n";

int main(int argc, char **argv)
{
	if (cmdline_flags(argc, argv, "", NULL, usage, 1) != argc)
		cmdline_usage(usage, 1);
	fputs(text, stdout);
	return 0;
}
