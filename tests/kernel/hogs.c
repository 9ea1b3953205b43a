#include "tests/kernel/hogs.h"
#include "kernel/task/kthread.h"
#include "sched/api.h"
#include "arch/x86_64/cpu.h"

static volatile bool hogs_stop;

static void spin_until_stopped(void *arg)
{
	(void)arg;
	while (!hogs_stop)
		cpu_relax();
}

int start_hogs(struct task **hogs, int n, const cpumask_t *masks, const int *nices)
{
	hogs_stop = false;
	for (int i = 0; i < n; i++) {
		hogs[i] = task_create("hog", spin_until_stopped, NULL);
		if (!hogs[i])
			return -1;
		if (masks && masks[i])
			hogs[i]->cpus_allowed = masks[i];
		if (nices)
			set_user_nice(hogs[i], nices[i]);
		task_start(hogs[i]);
	}
	return 0;
}

void stop_hogs(struct task **hogs, int n)
{
	hogs_stop = true;
	for (int i = 0; i < n; i++)
		task_join(hogs[i]);
}
