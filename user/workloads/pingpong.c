/*
 * pingpong - the cost of a wake-up and a context switch.
 *
 * Two processes bounce a byte, the token, over two pipes. Side a writes it
 * into b's pipe and sleeps reading its own until it comes back; side b,
 * asleep reading its pipe, wakes, writes the token back and sleeps again.
 * One round trip is two wake-ups; with both processes on one CPU it is
 * also two context switches, on two CPUs two cross-CPU wake-ups.
 *
 *   rounds=N   round trips timed                          (default 50000)
 *   warmup=N   untimed round trips first                  (default 1000)
 *   cpu_a=C    CPU of side a, -1 = not pinned             (default 0)
 *   cpu_b=C    CPU of side b, -1 = not pinned             (default 0)
 *   max_ms=T   stop after T ms of timing; the result then
 *              reports the rounds actually done           (default 10000)
 *
 *   RESULT name=pingpong cpu_a=0 cpu_b=0 rounds=50000 elapsed_ms=...
 *          ns_per_roundtrip=... via=pipe
 *
 * Side a is the program itself, side b a child (via=pipe: each round trip
 * also costs two reads and two writes).
 */
#include "workload.h"

#include <unistd.h>

enum { ROUNDS, WARMUP, CPU_A, CPU_B, MAX_MS, NPARAMS };

static struct param params[NPARAMS] = {
	[ROUNDS] = { "rounds", 50000, 1, 1000000000, "round trips timed" },
	[WARMUP] = { "warmup", 1000, 0, 1000000000, "untimed round trips first" },
	[CPU_A]  = { "cpu_a", 0, -1, MAX_CPU, "CPU of side a (-1: not pinned)" },
	[CPU_B]  = { "cpu_b", 0, -1, MAX_CPU, "CPU of side b (-1: not pinned)" },
	[MAX_MS] = { "max_ms", 10000, 1, 3600000, "cap on the timed interval, in ms" },
};

struct pipes {
	int to_a[2], to_b[2];             /* [0] is read, [1] is write */
};

/* Side a: hand the token to b and wait for it to come back. */
static void round_trip(void *arg)
{
	const struct pipes *p = arg;
	char token = 'x';
	if (write(p->to_b[1], &token, 1) != 1)
		die_errno("write to side b");
	if (read(p->to_a[0], &token, 1) != 1)
		die_errno("read from side b");
}

/* Side b: return the token every time it arrives, until a closes its end. */
static void side_b(void *arg)
{
	const struct pipes *p = arg;
	close(p->to_b[1]);                /* else our own copy keeps the pipe open */
	close(p->to_a[0]);
	char token;
	ssize_t n;
	while ((n = read(p->to_b[0], &token, 1)) == 1)
		if (write(p->to_a[1], &token, 1) != 1)
			die_errno("write to side a");
	if (n < 0)
		die_errno("read from side a");
}

int main(int argc, char **argv)
{
	params_parse("pingpong", "ns per round trip of a token between two processes (2 wake-ups)",
		     argc, argv, params, NPARAMS);
	int cpu_a = (int)params[CPU_A].value, cpu_b = (int)params[CPU_B].value;
	check_cpu("cpu_a", cpu_a);
	check_cpu("cpu_b", cpu_b);

	struct pipes p;
	if (pipe(p.to_a) != 0 || pipe(p.to_b) != 0)
		die_errno("pipe");
	pid_t b = spawn(side_b, &p, cpu_b, 0, NULL);
	close(p.to_b[0]);
	close(p.to_a[1]);
	pin_to_cpu(cpu_a);

	uint64_t elapsed;
	long done = repeat_timed(round_trip, &p, params[WARMUP].value, params[ROUNDS].value,
				 params[MAX_MS].value, 256, &elapsed);
	close(p.to_b[1]);                 /* b reads end of file and returns */
	reap_child(b);

	result_begin();
	result_add("cpu_a=%d cpu_b=%d rounds=%ld", cpu_a, cpu_b, done);
	result_add("elapsed_ms=%.1f", (double)elapsed / 1e6);
	result_add("ns_per_roundtrip=%.0f", (double)elapsed / (double)done);
	result_add("via=pipe");
	result_end();
	return 0;
}
