/*
 * Tunables: boot parameters that may also be read and changed at run time
 * by name (the scheduler's sched_granularity_ns and friends). Declare one
 * next to the code that reads it:
 *
 *     static int64_t sched_granularity_ns = 2000000;
 *     SYSCTL_INT("sched_granularity_ns", sched_granularity_ns, 100000, 1000000000, "...");
 *
 * The variable may change between any two reads: read it once per use.
 */
#pragma once
#include <stdint.h>
#include "lib/cmdline.h"

#define SYSCTL_INT(name_, var_, min_, max_, help_)                                      \
	BOOT_PARAM(var_, .name = name_, .type = PARAM_INT, .help = help_,              \
		   .var = BOOT_PARAM_VAR(var_, int64_t *), .min = min_, .max = max_, .sysctl = true)

/* Read a tunable's variable: it may be written at any moment, so read it
 * once per use, through this. */
static inline int64_t sysctl_read(const int64_t *var)
{
	return __atomic_load_n(var, __ATOMIC_RELAXED);
}

/* 0, or -ENOENT for no such tunable; set also -EINVAL for a value out of
 * its range, which stays as it was. */
int sysctl_get(const char *name, int64_t *value);
int sysctl_set(const char *name, int64_t value);
/* Visit every tunable, e.g. to list them. */
void sysctl_for_each(void (*fn)(const struct param *p, void *arg), void *arg);
