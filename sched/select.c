/*
 * sched=cfs|sd|o1: which class runs SCHED_NORMAL, BATCH and IDLE tasks.
 * The three are the 2007 debate (docs/schedulers.md): the O(1) scheduler
 * that was in Linux, Staircase Deadline that proved fair scheduling works,
 * and CFS that replaced both. Each is one scheduling class, the junction
 * point the seed's modular core offers, and exactly one of them sits in the
 * class list between RT and idle. It is chosen before the first runqueue
 * is set up and never changes: a task's class data means nothing to
 * another class, so two of them cannot share a machine.
 */
#include "sched/sched.h"
#include "sched/api.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"

struct normal_class {
	const char *name;
	const struct sched_class *class;
	const char *what;
};

#ifdef SCHED_SIMULATOR
/* Round robin, the fourth class docs/scheduler.md adds: the host tests'
 * check that adding a class touches only its file and this table. */
extern const struct sched_class rr_sched_class;   /* tests/sim/rr_class.c */
#endif

static const struct normal_class normal_classes[] = {
	{ "cfs", &fair_sched_class, "the Completely Fair Scheduler: a timeline ordered by virtual runtime" },
	{ "sd",  &sd_sched_class,   "Staircase Deadline 0.40: quotas on a staircase of priority slots" },
	{ "o1",  &o1_sched_class,   "the O(1) scheduler of Linux 2.6.12-2.6.22: timeslices and an "
				    "interactivity estimator" },
#ifdef SCHED_SIMULATOR
	{ "rr",  &rr_sched_class,   "round robin: a FIFO queue and a fixed slice (the simulator only)" },
#endif
};

const struct sched_class *sched_classes[NR_SCHED_CLASSES + 1] = { &rt_sched_class, &fair_sched_class, &idle_sched_class, NULL };

int sched_select(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(normal_classes); i++) {
		if (strcmp(name, normal_classes[i].name) == 0) {
			normal_sched_class = normal_classes[i].class;
			return 0;
		}
	}
	return -1;
}

const char *sched_selected(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(normal_classes); i++)
		if (normal_classes[i].class == normal_sched_class)
			return normal_classes[i].name;
	return "?";
}

const char *sched_name(int i)
{
	return i >= 0 && (size_t)i < ARRAY_SIZE(normal_classes) ? normal_classes[i].name : NULL;
}

void sched_list(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(normal_classes); i++)
		pr_info("sched=%-3s %s%s", normal_classes[i].name, normal_classes[i].what, i == 0 ? " (the default)" : "");
}

/* The boot parameter: a bad value is told, with the choices, and the
 * default stays (the boot goes on: a scheduler is not worth a dead machine). */
static int sched_param(const char *value, char *err, size_t errlen)
{
	if (strcmp(value, "list") == 0) {
		sched_list();
		return 0;
	}
	if (sched_select(value) == 0)
		return 0;
	snprintf(err, errlen, "no such scheduler (sched=list lists them: cfs, sd, o1); keeping %s", sched_selected());
	return -1;
}
BOOT_PARAM_CALL("sched", sched_param, "the normal tasks' scheduler: cfs (default), sd or o1; list: list them");
