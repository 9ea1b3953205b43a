/*
 * pipepingpong: a byte goes from one process to another through a pipe and
 * comes back through a second one: two writes, two reads, two wake-ups and
 * two switches per round trip. cpu_a and cpu_b pin the two processes: the
 * same CPU measures the switch, two CPUs the cross-CPU wake-up.
 *
 *   pipepingpong [cpu_a=0] [cpu_b=0] [iterations=N]
 *   RESULT name=pipepingpong iterations=N ns_per_op=X cpus=1|2 cpu_a=A cpu_b=B
 */
#include "result.h"

#include <unistd.h>

enum { CPU_A, CPU_B, ITERATIONS, NPARAMS };

static struct param params[NPARAMS] = {
	[CPU_A]      = { "cpu_a", 0, 0, MAX_CPU, "CPU of the timing process" },
	[CPU_B]      = { "cpu_b", 0, 0, MAX_CPU, "CPU of the echoing one" },
	[ITERATIONS] = { "iterations", 6000, 1, 1000000000, "round trips timed" },
};

struct pipes {
	int ping[2], pong[2];             /* [0] is read, [1] is write */
};

/* Pass a byte: read it from one pipe, write it into the other; false at
 * the end of the input. */
static bool pass(int from, int to)
{
	char c;
	ssize_t n = read(from, &c, 1);
	if (n < 0)
		die_errno("read");
	if (n > 0 && write(to, &c, 1) != 1)
		die_errno("write");
	return n > 0;
}

static void round_trips(const struct pipes *p, long n)
{
	for (long i = 0; i < n; i++)
		if (!pass(p->pong[0], p->ping[1]))
			die("the echoing process is gone");
}

/* The echo: sends each byte back, until the timing process closes its end. */
static void echo(void *arg)
{
	const struct pipes *p = arg;
	close(p->ping[1]);
	while (pass(p->ping[0], p->pong[1]))
		;
}

int main(int argc, char **argv)
{
	params_parse("pipepingpong", "ns per round trip of a byte through two pipes", argc, argv,
		     params, NPARAMS);
	int cpu_a = (int)params[CPU_A].value, cpu_b = (int)params[CPU_B].value;
	long n = params[ITERATIONS].value;
	check_cpu("cpu_a", cpu_a);
	check_cpu("cpu_b", cpu_b);
	struct pipes p;
	if (pipe(p.ping) != 0 || pipe(p.pong) != 0)
		die_errno("pipe");
	pid_t pid = spawn(echo, &p, cpu_b, 0, NULL);
	pin_to_cpu(cpu_a);
	/* The first byte starts the game; each pass is then one round trip. */
	char c = 'x';
	if (write(p.ping[1], &c, 1) != 1)
		die_errno("write");
	round_trips(&p, n / 10);
	uint64_t t0 = now_ns();
	round_trips(&p, n);
	uint64_t elapsed = now_ns() - t0;
	close(p.ping[1]);
	reap_child(pid);
	bench_result(n, elapsed, cpu_a == cpu_b ? 1 : 2);
	result_add("cpu_a=%d cpu_b=%d", cpu_a, cpu_b);
	result_end();
	return 0;
}
