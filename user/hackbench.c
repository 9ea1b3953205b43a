/*
 * hackbench - many tasks sending each other messages: how long does it take?
 *
 * groups groups of fds senders and fds receivers. Every receiver has a
 * channel (user/channel.h), and every sender of a group writes loops
 * messages of datasize bytes to every receiver of its group, which reads
 * fds * loops of them. All tasks are created first and released together;
 * the time runs from then until the last receiver has read its last message.
 * It stresses wake-ups, picks and switches with hundreds of runnable tasks,
 * and wake-up preemption: a lower time is better, and no group may starve.
 *
 *   groups=G     groups                                      (default 10)
 *   fds=F        senders, and receivers, per group           (default 20)
 *   loops=L      messages from each sender to each receiver  (default 100)
 *   datasize=S   bytes per message                           (default 100)
 *   depth=D      messages a channel holds                    (default 64)
 *
 *   RESULT name=hackbench groups=10 fds=20 tasks=400 loops=100 datasize=100
 *          messages=400000 time_ms=... via=channel
 *
 * The defaults are rt-tests hackbench's (10 groups x 40 tasks); it connects
 * the tasks with socket pairs or pipes and reports seconds. Here the tasks
 * are kernel tasks, the connections channels (via=channel), and the time is
 * in ms. groups x fds x 2 tasks, at most 3000: each needs a kernel stack.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "user/channel.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "arch/x86_64/time.h"
#include "lib/string.h"

#define MAX_TASKS 3000
#define MAX_DATA  1024

enum { GROUPS, FDS, LOOPS, DATASIZE, DEPTH };

static const struct workload_param hackbench_params[] = {
	[GROUPS]   = { "groups", 10, 1, MAX_TASKS / 2, "groups" },
	[FDS]      = { "fds", 20, 1, MAX_TASKS / 2, "senders, and receivers, per group" },
	[LOOPS]    = { "loops", 100, 1, 1000000, "messages from each sender to each receiver" },
	[DATASIZE] = { "datasize", 100, 1, MAX_DATA, "bytes per message" },
	[DEPTH]    = { "depth", 64, 1, 4096, "messages a channel holds" },
};

struct bench {
	struct channel *ch;               /* one per receiver: group g's are ch[g * fds ...] */
	int fds;
	int64_t loops;
	size_t size;
};

/* Sender i belongs to group i / fds: one message to each of the group's
 * receivers in turn, loops times. */
static void sender(struct worker *w)
{
	const struct bench *b = w->crew->arg;
	int first = (int)(w - w->crew->workers) / b->fds * b->fds;
	uint8_t msg[MAX_DATA];
	memset(msg, 's', b->size);
	for (int64_t i = 0; i < b->loops; i++)
		for (int r = first; r < first + b->fds; r++)
			channel_send(&b->ch[r], msg);
}

static void receiver(struct worker *w)
{
	const struct bench *b = w->crew->arg;
	struct channel *ch = &b->ch[w - w->crew->workers];
	uint8_t msg[MAX_DATA];
	for (int64_t i = 0; i < b->loops * b->fds; i++)
		channel_receive(ch, msg);
}

static int run_hackbench(const int64_t *v)
{
	int groups = (int)v[GROUPS], fds = (int)v[FDS], n = groups * fds;
	if (2 * (int64_t)n > MAX_TASKS) {
		pr_err("hackbench: groups=%d fds=%d make %d tasks; at most %d", groups, fds, 2 * n, MAX_TASKS);
		return -1;
	}
	struct bench b = { .fds = fds, .loops = v[LOOPS], .size = (size_t)v[DATASIZE] };
	b.ch = kzalloc((size_t)n * sizeof(struct channel));
	int ready = 0;
	while (b.ch && ready < n && channel_init(&b.ch[ready], b.size, (unsigned)v[DEPTH]) == 0)
		ready++;
	struct crew senders, receivers;
	int status = -1;
	if (ready < n) {
		pr_err("hackbench: out of memory for %d channels", n);
	} else if (crew_create(&receivers, n, "hb-recv", receiver, &b) == 0) {
		if (crew_create(&senders, n, "hb-send", sender, &b) == 0) {
			uint64_t start = clock_ns();
			crew_start(&receivers);
			crew_start(&senders);
			crew_stop(&receivers);    /* returns once every message is read */
			uint64_t elapsed = clock_ns() - start;
			crew_stop(&senders);

			struct result r;
			result_begin(&r, "hackbench");
			result_add(&r, "groups=%d fds=%d tasks=%d loops=%lld datasize=%lld messages=%llu", groups, fds,
				   2 * n, (long long)b.loops, (long long)v[DATASIZE],
				   (unsigned long long)((uint64_t)n * (uint64_t)fds * (uint64_t)b.loops));
			result_fixed(&r, "time_ms", div_round(elapsed, NS_PER_MS / 10), 1);
			result_add(&r, "via=channel");
			result_print(&r);
			status = 0;
		} else {
			b.loops = 0;              /* the receivers, never started, wait for nothing */
			crew_stop(&receivers);
		}
	}
	for (int i = 0; i < ready; i++)
		channel_free(&b.ch[i]);
	kfree(b.ch);
	return status;
}

WORKLOAD(hackbench, "groups of senders and receivers over channels: time for all messages", hackbench_params,
	 run_hackbench);
