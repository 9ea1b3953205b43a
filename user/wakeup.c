/*
 * wakeup - how late does a periodic task run when the CPUs are busy?
 *
 * hogs_per_cpu hogs are pinned to every CPU (or to CPUs 0..hog_cpus-1
 * only). A sleeper pinned to cpu= wakes at absolute deadlines period_us
 * apart. Each sample is
 *
 *     lateness = time the sleeper runs again - its deadline
 *
 * which adds timer latency, the wake-up preemption decision and the context
 * switch. A sample later than a whole period skips the deadlines it missed
 * (counted as overruns) instead of bunching up behind them.
 *
 * Loading only the sleeper's CPU (hog_cpus=1, cpu=0) separates the
 * scheduler's part from the host's: under QEMU TCG on a small host, hogs on
 * every virtual CPU also starve the emulator thread that delivers timer
 * interrupts, so every policy sees late timers.
 *
 *   samples=S       deadlines measured                        (default 2000)
 *   period_us=P     time between deadlines, in us             (default 1000)
 *   hogs_per_cpu=H  hogs pinned to each loaded CPU            (default 1)
 *   hog_cpus=N      load CPUs 0..N-1 only, -1 = every CPU     (default -1)
 *   cpu=C           the sleeper's CPU, -1 = not pinned        (default 0)
 *   fifo=0|1        1: the sleeper runs SCHED_FIFO at rt_prio (default 0)
 *   rt_prio=R       its SCHED_FIFO priority                   (default 50)
 *   nice=N          its nice level when fifo=0                (default 0)
 *   warmup_ms=W     hogs run this long before sampling        (default 200)
 *
 *   RESULT name=wakeup policy=other|fifo prio=0 cpu=0 hogs_per_cpu=1
 *          hog_cpus=4 period_us=1000 samples=2000 p50_us=... p99_us=...
 *          max_us=... mean_us=... overruns=...
 *
 * As ../shared/peer/workloads/wakeup.c (clock_nanosleep(TIMER_ABSTIME), its
 * timer slack set to 1 ns), with the sleeper and the hogs as kernel tasks.
 * At most 20000 samples: the percentiles come from an insertion sort.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/task.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/api.h"
#include "arch/x86_64/time.h"
#include "lib/sort.h"

enum { SAMPLES, PERIOD_US, HOGS_PER_CPU, HOG_CPUS, CPU, FIFO, RT_PRIO, NICE, WARMUP_MS };

static const struct workload_param wakeup_params[] = {
	[SAMPLES]      = { "samples", 2000, 1, 20000, "deadlines measured" },
	[PERIOD_US]    = { "period_us", 1000, 10, 10000000, "time between deadlines, in us" },
	[HOGS_PER_CPU] = { "hogs_per_cpu", 1, 0, 64, "hogs pinned to each loaded CPU" },
	[HOG_CPUS]     = { "hog_cpus", -1, -1, MAX_CPUS, "load CPUs 0..N-1 (-1: every CPU)" },
	[CPU]          = { "cpu", 0, -1, MAX_CPUS - 1, "the sleeper's CPU (-1: not pinned)" },
	[FIFO]         = { "fifo", 0, 0, 1, "1: the sleeper is SCHED_FIFO" },
	[RT_PRIO]      = { "rt_prio", 50, 1, 99, "its SCHED_FIFO priority" },
	[NICE]         = { "nice", 0, MIN_NICE, MAX_NICE, "its nice level (fifo=0)" },
	[WARMUP_MS]    = { "warmup_ms", 200, 0, 60000, "hog run time before sampling, in ms" },
};

struct sleeper {
	const int64_t *v;
	uint64_t *late;                   /* ns, one per sample */
	int64_t overruns;
	int error;                        /* from sched_setscheduler */
};

static void sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	const int64_t *v = s->v;
	if (v[FIFO]) {
		struct sched_param param = { (int)v[RT_PRIO] };
		s->error = sched_setscheduler(0, SCHED_FIFO, &param);
		if (s->error)
			return;
	}
	sleep_ms((uint64_t)v[WARMUP_MS]);

	uint64_t period = (uint64_t)v[PERIOD_US] * NS_PER_US, deadline = clock_ns();
	for (int64_t i = 0; i < v[SAMPLES]; i++) {
		s->late[i] = sleep_period(&deadline, period);
		s->overruns += s->late[i] >= period;
	}
}

static int run_wakeup(const int64_t *v)
{
	int ncpus = online_cpus(), hog_cpus = v[HOG_CPUS] < 0 ? ncpus : (int)v[HOG_CPUS];
	if (hog_cpus > ncpus) {
		pr_err("wakeup: hog_cpus=%d, but only %d CPUs are online", hog_cpus, ncpus);
		return -1;
	}
	if (check_cpu("wakeup", "cpu", v[CPU]) < 0)
		return -1;
	int64_t samples = v[SAMPLES];
	struct sleeper s = { .v = v, .late = kmalloc((size_t)samples * sizeof(uint64_t)) };
	if (!s.late) {
		pr_err("wakeup: out of memory for %lld samples", (long long)samples);
		return -1;
	}

	struct crew hogs;
	int nhogs = (int)v[HOGS_PER_CPU] * hog_cpus;
	if (crew_create(&hogs, nhogs, "hog", hog_body, NULL) < 0) {
		kfree(s.late);
		return -1;
	}
	for (int i = 0; i < nhogs; i++)
		pin_task(hogs.workers[i].task, i % hog_cpus);
	struct task *sleeper = task_create("sleeper", sleeper_main, &s);
	if (!sleeper) {
		pr_err("wakeup: out of memory for the sleeper");
		crew_stop(&hogs);
		kfree(s.late);
		return -1;
	}
	pin_task(sleeper, (int)v[CPU]);
	if (!v[FIFO])
		set_user_nice(sleeper, (int)v[NICE]);
	crew_start(&hogs);
	task_start(sleeper);
	task_join(sleeper);
	crew_stop(&hogs);

	if (s.error) {
		pr_err("wakeup: SCHED_FIFO %lld refused (%d)", (long long)v[RT_PRIO], s.error);
		kfree(s.late);
		return -1;
	}
	uint64_t sum = 0;
	for (int64_t i = 0; i < samples; i++)
		sum += s.late[i];
	sort_u64(s.late, (size_t)samples);

	struct result r;
	result_begin(&r, "wakeup");
	result_add(&r, "policy=%s prio=%lld cpu=%lld hogs_per_cpu=%lld hog_cpus=%d period_us=%lld samples=%lld",
		   v[FIFO] ? "fifo" : "other", (long long)(v[FIFO] ? v[RT_PRIO] : v[NICE]), (long long)v[CPU],
		   (long long)v[HOGS_PER_CPU], hog_cpus, (long long)v[PERIOD_US], (long long)samples);
	result_us(&r, "p50_us", percentile(s.late, samples, 50));
	result_us(&r, "p99_us", percentile(s.late, samples, 99));
	result_us(&r, "max_us", s.late[samples - 1]);
	result_fixed(&r, "mean_us", div_round(sum, (uint64_t)samples * (NS_PER_US / 10)), 1);
	result_add(&r, "overruns=%lld", (long long)s.overruns);
	result_print(&r);
	kfree(s.late);
	return 0;
}

WORKLOAD(wakeup, "how late a periodic sleeper runs next to hogs (p50/p99/max)", wakeup_params, run_wakeup);
