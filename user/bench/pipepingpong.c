/*
 * pipepingpong: a byte goes from one process to another through a pipe and
 * comes back through a second one: two writes, two reads, two wake-ups and
 * two switches per round trip. cpu_a and cpu_b pin the two processes: the
 * same CPU measures the switch, two CPUs the cross-CPU wake-up.
 *
 *   pipepingpong [cpu_a=0] [cpu_b=0] [iterations=N]
 *   RESULT name=pipepingpong iterations=N ns_per_op=X cpus=1|2 cpu_a=A cpu_b=B
 */
#include "bench.h"
#include <sys/wait.h>
#include <unistd.h>

/* Pass a byte: read it from one pipe, write it into the other. */
static void pass(int from, int to)
{
	char c;
	if (read(from, &c, 1) != 1)
		bench_fail("pipepingpong", "read");
	if (write(to, &c, 1) != 1)
		bench_fail("pipepingpong", "write");
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "cpu_a", 0, 0, 1023 },
		{ "cpu_b", 0, 0, 1023 },
		{ "iterations", 6000, 1, 1000000000 },
	};
	bench_params("pipepingpong", argc, argv, params, 3);
	int cpu_a = params[0].value, cpu_b = params[1].value;
	long n = params[2].value;
	int ping[2], pong[2];
	if (pipe(ping) != 0 || pipe(pong) != 0)
		bench_fail("pipepingpong", "pipe");
	pid_t pid = fork();
	if (pid < 0)
		bench_fail("pipepingpong", "fork");
	if (pid == 0) {
		/* The echo: sends each byte back, until the parent closes its end. */
		bench_pin("pipepingpong", cpu_b);
		close(ping[1]);
		char c;
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				bench_fail("pipepingpong", "write");
		_exit(0);
	}
	bench_pin("pipepingpong", cpu_a);
	/* The first byte starts the game; each pass is then one round trip. */
	char c = 'x';
	if (write(ping[1], &c, 1) != 1)
		bench_fail("pipepingpong", "write");
	for (long i = 0; i < n / 10; i++)
		pass(pong[0], ping[1]);
	uint64_t t0 = bench_now_ns();
	for (long i = 0; i < n; i++)
		pass(pong[0], ping[1]);
	uint64_t elapsed = bench_now_ns() - t0;
	close(ping[1]);
	if (waitpid(pid, NULL, 0) != pid)
		bench_fail("pipepingpong", "waitpid");
	char keys[64];
	snprintf(keys, sizeof(keys), "cpu_a=%d cpu_b=%d", cpu_a, cpu_b);
	bench_report("pipepingpong", n, elapsed, cpu_a == cpu_b ? 1 : 2, keys);
	return 0;
}
