/*
 * wakeup - how late does a periodic task run when the CPUs are busy?
 *
 * hogs_per_cpu hog processes are pinned to every CPU (or to CPUs
 * 0..hog_cpus-1 only). The program itself is the sleeper: pinned to cpu=,
 * it wakes at absolute deadlines period_us apart
 * (clock_nanosleep(TIMER_ABSTIME)). Each sample is
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
 * Linux lets a normal task's timer fire up to 50 us late (its timer slack,
 * to merge wake-ups) but a real-time task's on time; the sleeper asks for
 * 1 ns of slack, so that both policies measure the scheduler, not the slack.
 *
 *   samples=S       deadlines measured, up to 20000          (default 2000)
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
 * SCHED_FIFO, and a nice level below 0, need privilege on Linux (root or
 * CAP_SYS_NICE): without it the program says so and exits 1.
 */
#include "workload.h"

#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>

enum { SAMPLES, PERIOD_US, HOGS_PER_CPU, HOG_CPUS, CPU, FIFO, RT_PRIO, NICE, WARMUP_MS, NPARAMS };

static struct param params[NPARAMS] = {
	[SAMPLES]      = { "samples", 2000, 1, 20000, "deadlines measured" },
	[PERIOD_US]    = { "period_us", 1000, 10, 10000000, "time between deadlines, in us" },
	[HOGS_PER_CPU] = { "hogs_per_cpu", 1, 0, 64, "hogs pinned to each loaded CPU" },
	[HOG_CPUS]     = { "hog_cpus", -1, -1, MAX_CPU + 1, "load CPUs 0..N-1 (-1: every CPU)" },
	[CPU]          = { "cpu", 0, -1, MAX_CPU, "the sleeper's CPU (-1: not pinned)" },
	[FIFO]         = { "fifo", 0, 0, 1, "1: the sleeper is SCHED_FIFO" },
	[RT_PRIO]      = { "rt_prio", 50, 1, 99, "its SCHED_FIFO priority" },
	[NICE]         = { "nice", 0, -20, 19, "its nice level (fifo=0)" },
	[WARMUP_MS]    = { "warmup_ms", 200, 0, 60000, "hog run time before sampling, in ms" },
};

/* The sleeper's CPU, timer slack and policy; false (errno set) if the
 * policy is refused. Called after the hogs are forked, as they would
 * inherit the policy. */
static bool become_sleeper(void)
{
	pin_to_cpu((int)params[CPU].value);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);   /* a kernel without slack has none to cut */
	if (params[FIFO].value)
		return try_fifo((int)params[RT_PRIO].value);
	return setpriority(PRIO_PROCESS, 0, (int)params[NICE].value) == 0;
}

/* Sleep to the next deadline, period after *deadline, and return how late
 * we woke (ns). A wake-up later than a whole period starts the deadlines
 * again from now. */
static uint64_t sleep_period(uint64_t *deadline, uint64_t period)
{
	*deadline += period;
	sleep_until_ns(*deadline);
	uint64_t late = now_ns() - *deadline;
	if (late >= period)
		*deadline += late;
	return late;
}

int main(int argc, char **argv)
{
	params_parse("wakeup", "how late a periodic sleeper runs next to hogs (p50/p99/max)",
		     argc, argv, params, NPARAMS);
	int ncpus = online_cpus();
	int hog_cpus = params[HOG_CPUS].value < 0 ? ncpus : (int)params[HOG_CPUS].value;
	if (hog_cpus > ncpus)
		die("hog_cpus=%d, but only %d CPUs are online", hog_cpus, ncpus);
	check_cpu("cpu", params[CPU].value);
	const char *policy = params[FIFO].value ? "fifo" : "other";
	long prio = params[FIFO].value ? params[RT_PRIO].value : params[NICE].value;
	long samples = params[SAMPLES].value, overruns = 0;
	uint64_t *late = malloc((size_t)samples * sizeof(*late));
	if (!late)
		die("out of memory for %ld samples", samples);

	int nhogs = (int)params[HOGS_PER_CPU].value * hog_cpus;
	/* Room for one more hog than asked: there may be none, and neither mmap nor
	 * malloc need accept a size of 0. */
	struct counter *counters = shared_alloc((size_t)(nhogs + 1) * sizeof(*counters));
	pid_t *hogs = malloc((size_t)(nhogs + 1) * sizeof(*hogs));
	if (!hogs)
		die("out of memory for %d hogs", nhogs);
	for (int i = 0; i < nhogs; i++)
		hogs[i] = spawn(hog, &counters[i], i % hog_cpus, 0, NULL);
	if (!become_sleeper()) {
		stop_children(hogs, nhogs);
		die_errno("the sleeper cannot have policy=%s prio=%ld", policy, prio);
	}
	sleep_ms(params[WARMUP_MS].value);

	uint64_t period = (uint64_t)params[PERIOD_US].value * 1000u, deadline = now_ns(), sum = 0;
	for (long i = 0; i < samples; i++) {
		late[i] = sleep_period(&deadline, period);
		overruns += late[i] >= period;
		sum += late[i];
	}
	stop_children(hogs, nhogs);
	sort_u64(late, (size_t)samples);

	result_begin();
	result_add("policy=%s prio=%ld cpu=%ld hogs_per_cpu=%ld hog_cpus=%d period_us=%ld samples=%ld",
		   policy, prio, params[CPU].value, params[HOGS_PER_CPU].value, hog_cpus,
		   params[PERIOD_US].value, samples);
	result_add("p50_us=%.1f", (double)percentile(late, (size_t)samples, 50) / 1e3);
	result_add("p99_us=%.1f", (double)percentile(late, (size_t)samples, 99) / 1e3);
	result_add("max_us=%.1f", (double)late[samples - 1] / 1e3);
	result_add("mean_us=%.1f", (double)sum / (double)samples / 1e3);
	result_add("overruns=%ld", overruns);
	result_end();
	return 0;
}
