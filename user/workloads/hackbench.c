/*
 * hackbench - many processes sending each other messages: how long does it take?
 *
 * groups groups of fds senders and fds receivers. Every receiver reads its
 * own pipe, and every sender of a group writes loops messages of datasize
 * bytes into the pipe of every receiver of its group, which reads fds *
 * loops of them. All processes are created first and released together;
 * the time runs from then until the last of them has exited. It stresses
 * wake-ups, picks and switches with hundreds of runnable processes, and
 * wake-up preemption: a lower time is better, and no group may starve.
 *
 *   groups=G     groups                                      (default 10)
 *   fds=F        senders, and receivers, per group           (default 20)
 *   loops=L      messages from each sender to each receiver  (default 100)
 *   datasize=S   bytes per message                           (default 100)
 *
 *   RESULT name=hackbench groups=10 fds=20 tasks=400 loops=100 datasize=100
 *          messages=400000 time_ms=... via=pipe switches=N switches_per_message=...
 *          idle_share=...
 *
 * switches counts every task switch of the machine meanwhile (/proc/stat's
 * ctxt): how often a message cost a switch. idle_share is the part of all
 * CPUs' time that they were idle meanwhile: work spread unevenly.
 *
 * The defaults are rt-tests hackbench's (10 groups x 40 processes), in its
 * pipe mode (-p); it reports seconds, this ms. groups x fds x 2 processes,
 * at most 2000 (memory). A group's processes inherit all its pipes, 2 x fds
 * descriptors, hence at most 100 per group.
 */
#include "workload.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROCESSES 2000
#define MAX_FDS       100
#define MAX_DATA      1024                /* below PIPE_BUF: every write is whole */

enum { GROUPS, FDS, LOOPS, DATASIZE, NPARAMS };

static struct param params[NPARAMS] = {
	[GROUPS]   = { "groups", 10, 1, MAX_PROCESSES / 2, "groups" },
	[FDS]      = { "fds", 20, 1, MAX_FDS, "senders, and receivers, per group" },
	[LOOPS]    = { "loops", 100, 1, 1000000, "messages from each sender to each receiver" },
	[DATASIZE] = { "datasize", 100, 1, MAX_DATA, "bytes per message" },
};

/* One group's pipes, and which of them a receiver reads. */
struct group {
	int pipes[MAX_FDS][2];
	int fds;
	long loops;
	size_t size;
	int receiver;
};

/* One message to each receiver of the group in turn, loops times. */
static void sender(void *arg)
{
	const struct group *g = arg;
	char msg[MAX_DATA];
	memset(msg, 's', g->size);
	for (long i = 0; i < g->loops; i++)
		for (int r = 0; r < g->fds; r++)
			if (write(g->pipes[r][1], msg, g->size) != (ssize_t)g->size)
				die_errno("write a message");
}

/* Every sender's messages; a pipe may hand a message over in pieces. */
static void receiver(void *arg)
{
	const struct group *g = arg;
	int in = g->pipes[g->receiver][0];
	char buf[MAX_DATA];
	for (long m = 0; m < g->loops * g->fds; m++) {
		for (size_t got = 0; got < g->size;) {
			ssize_t n = read(in, buf, g->size - got);
			if (n <= 0)
				die_errno("read a message");
			got += (size_t)n;
		}
	}
}

/* Fork a group's receivers and senders, behind the gate; each child takes
 * its own copy of g as it is at the fork. The parent keeps none of the
 * group's pipes, so that its descriptors do not grow with the groups. */
static void spawn_group(struct group *g, struct gate *gate)
{
	for (int r = 0; r < g->fds; r++)
		if (pipe(g->pipes[r]) != 0)
			die_errno("pipe");
	for (g->receiver = 0; g->receiver < g->fds; g->receiver++)
		spawn(receiver, g, -1, 0, gate);
	for (int s = 0; s < g->fds; s++)
		spawn(sender, g, -1, 0, gate);
	for (int r = 0; r < g->fds; r++) {
		close(g->pipes[r][0]);
		close(g->pipes[r][1]);
	}
}

/* Wait for n children in the order they end. One that fails ends the run
 * at once (the others die with us) instead of leaving its group's
 * receivers waiting forever. */
static void reap_all(int n)
{
	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = wait(&status);
		if (pid < 0)
			die_errno("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			die("process %d failed (wait status %#x)", (int)pid, status);
	}
}

int main(int argc, char **argv)
{
	params_parse("hackbench", "groups of senders and receivers over pipes: time for all messages",
		     argc, argv, params, NPARAMS);
	int groups = (int)params[GROUPS].value, fds = (int)params[FDS].value;
	int processes = 2 * groups * fds;
	if (processes > MAX_PROCESSES)
		die("groups=%d fds=%d make %d processes; at most %d", groups, fds, processes, MAX_PROCESSES);

	struct group g = { .fds = fds, .loops = params[LOOPS].value, .size = (size_t)params[DATASIZE].value };
	struct gate gate;
	gate_init(&gate);
	for (int i = 0; i < groups; i++)
		spawn_group(&g, &gate);
	struct machine_stat before = machine_stat_now();
	uint64_t start = now_ns();
	gate_open(&gate);
	reap_all(processes);
	uint64_t elapsed = now_ns() - start;
	struct machine_stat after = machine_stat_now();
	uint64_t switched = after.switches - before.switches, idle = after.idle - before.idle;
	uint64_t all = after.busy - before.busy + idle;
	long messages = (long)groups * fds * fds * g.loops;

	result_begin();
	result_add("groups=%d fds=%d tasks=%d loops=%ld datasize=%ld messages=%ld", groups, fds, processes,
		   g.loops, params[DATASIZE].value, messages);
	result_add("time_ms=%.1f via=pipe switches=%llu switches_per_message=%.2f idle_share=%.2f",
		   (double)elapsed / 1e6, (unsigned long long)switched, (double)switched / (double)messages,
		   all ? (double)idle / (double)all : 0.0);
	result_end();
	return 0;
}
