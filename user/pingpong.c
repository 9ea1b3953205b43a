/*
 * pingpong - the cost of a wake-up and a context switch.
 *
 * Two tasks bounce a token. Side a hands it over (turn = b, wake b) and
 * sleeps on its wait queue until it comes back; side b, asleep on its own
 * queue, wakes, hands it back and sleeps again. One round trip is two
 * wake-ups; with both tasks on one CPU it is also two context switches, on
 * two CPUs two cross-CPU wake-ups.
 *
 *   rounds=N   round trips timed                          (default 50000)
 *   warmup=N   untimed round trips first                  (default 1000)
 *   cpu_a=C    CPU of side a, -1 = not pinned             (default 0)
 *   cpu_b=C    CPU of side b, -1 = not pinned             (default 0)
 *   max_ms=T   stop after T ms of timing; the result then
 *              reports the rounds actually done           (default 10000)
 *
 *   RESULT name=pingpong cpu_a=0 cpu_b=0 rounds=50000 elapsed_ms=...
 *          ns_per_roundtrip=... via=waitqueue
 *
 * ../shared/peer/workloads/pingpong.c sends a byte over two pipes between
 * two processes; leftmost has no pipes, so the token goes through two wait
 * queues (via=waitqueue): the same two wake-ups without the system calls.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/wait.h"

enum { ROUNDS, WARMUP, CPU_A, CPU_B, MAX_MS };

static const struct workload_param pingpong_params[] = {
	[ROUNDS] = { "rounds", 50000, 1, 1000000000, "round trips timed" },
	[WARMUP] = { "warmup", 1000, 0, 1000000000, "untimed round trips first" },
	[CPU_A]  = { "cpu_a", 0, -1, MAX_CPUS - 1, "CPU of side a (-1: not pinned)" },
	[CPU_B]  = { "cpu_b", 0, -1, MAX_CPUS - 1, "CPU of side b (-1: not pinned)" },
	[MAX_MS] = { "max_ms", 10000, 1, 3600000, "cap on the timed interval, in ms" },
};

enum { A, B };

struct pingpong {
	struct wait_queue wq[2];          /* side i sleeps on wq[i] until turn == i */
	volatile int turn;                /* who holds the token */
	volatile bool over;               /* a is done: b returns */
	const int64_t *v;
	int64_t done;                     /* results, from side a */
	uint64_t elapsed;
};

/* Side a: hand the token to b and wait for it to come back. */
static int round_trip(void *arg)
{
	struct pingpong *pp = arg;
	pp->turn = B;
	wake_up_one(&pp->wq[B]);
	wait_event(&pp->wq[A], pp->turn == A);
	return 0;
}

static void side_a(void *arg)
{
	struct pingpong *pp = arg;
	pp->done = repeat_timed(round_trip, pp, pp->v[WARMUP], pp->v[ROUNDS], pp->v[MAX_MS], 256, &pp->elapsed);
	pp->over = true;
	wake_up_one(&pp->wq[B]);
}

/* Side b: return the token every time it arrives. */
static void side_b(void *arg)
{
	struct pingpong *pp = arg;
	for (;;) {
		wait_event(&pp->wq[B], pp->turn == B || pp->over);
		if (pp->over)
			return;
		pp->turn = A;
		wake_up_one(&pp->wq[A]);
	}
}

static int run_pingpong(const int64_t *v)
{
	if (check_cpu("pingpong", "cpu_a", v[CPU_A]) < 0 || check_cpu("pingpong", "cpu_b", v[CPU_B]) < 0)
		return -1;
	struct pingpong pp = { .turn = A, .v = v };
	wait_queue_init(&pp.wq[A], "ping");
	wait_queue_init(&pp.wq[B], "pong");

	struct task *b = task_create("pong", side_b, &pp);
	struct task *a = b ? task_create("ping", side_a, &pp) : NULL;
	if (!a) {
		pr_err("pingpong: out of memory for the two tasks");
		if (b) {
			pp.over = true;           /* b returns as soon as it runs */
			task_start(b);
			task_join(b);
		}
		return -1;
	}
	pin_task(a, (int)v[CPU_A]);
	pin_task(b, (int)v[CPU_B]);
	task_start(b);
	task_start(a);
	task_join(a);
	task_join(b);

	struct result r;
	result_begin(&r, "pingpong");
	result_add(&r, "cpu_a=%lld cpu_b=%lld rounds=%lld", (long long)v[CPU_A], (long long)v[CPU_B],
		   (long long)pp.done);
	result_fixed(&r, "elapsed_ms", div_round(pp.elapsed, NS_PER_MS / 10), 1);
	result_fixed(&r, "ns_per_roundtrip", div_round(pp.elapsed, (uint64_t)pp.done), 0);
	result_add(&r, "via=waitqueue");
	result_print(&r);
	return 0;
}

WORKLOAD(pingpong, "ns per round trip of a token between two tasks (2 wake-ups)", pingpong_params, run_pingpong);
